import MediaFormats
import PhotoCore

/// Reads the values photofs indexes from one TIFF-structured EXIF block, through libexif.
///
/// The block is what `ContainerLayout.exifBlocks` points to: it starts at the TIFF header
/// (`II*\0` or `MM\0*`). Blocks longer than libexif reads (64 KiB: TIFF and raw files, some
/// HEIC) are first repacked by `TIFFRepacker` into a small block holding the same IFD0,
/// Exif and GPS entries.
public enum EXIFReader {
    /// The facts in `tiffBlock`. Throws only when nothing at all could be read; a block with
    /// some unusable values yields facts with `problems`.
    public static func read(tiffBlock: [UInt8]) throws(EXIFReadError) -> EXIFFacts {
        guard tiffBlock.count >= 8,
            tiffBlock.starts(with: [0x49, 0x49, 0x2A, 0x00]) || tiffBlock.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
        else { throw .notTIFF }
        var block = tiffBlock
        var notes: [String] = []
        if block.count > LibexifDocument.maxBlockLength {
            let repacked = TIFFRepacker.repack(MemoryByteSource(tiffBlock), block: ByteRange(offset: 0, length: Int64(tiffBlock.count)))
            block = repacked.bytes
            notes = repacked.problems
        }
        var facts = try read(loaded: block)
        facts.problems = notes + facts.problems
        return facts
    }

    /// The facts of the block at `range` in `source`, reading only what is needed when the
    /// block is too long for libexif (a TIFF file of many megabytes).
    public static func read(_ source: some ByteSource, block range: ByteRange) throws(EXIFReadError) -> EXIFFacts {
        guard range.offset >= 0, range.length >= 8 else { throw .notTIFF }
        if range.length <= Int64(LibexifDocument.maxBlockLength) {
            guard let bytes = try? source.read(at: range.offset, count: Int(range.length)), bytes.count >= 8 else { throw .notTIFF }
            return try read(tiffBlock: bytes)
        }
        let repacked = TIFFRepacker.repack(source, block: range)
        guard repacked.bytes.count >= 8 else { throw .notTIFF }
        var facts = try read(loaded: repacked.bytes)
        facts.problems = repacked.problems + facts.problems
        return facts
    }

    private static func read(loaded block: [UInt8]) throws(EXIFReadError) -> EXIFFacts {
        guard let document = LibexifDocument(tiffBlock: block) else { throw .outOfMemory }
        let loaded = [EXIFDirectory.ifd0, .exif, .gps].reduce(0) { $0 + document.entryCount(in: $1) }
        guard loaded > 0 else {
            throw .empty(problems: document.problems.isEmpty ? ["EXIF: no entries could be read"] : document.problems)
        }
        var facts = EXIFFacts()
        readDate(document, into: &facts)
        facts.make = document.entry(EXIFTag.make, in: .ifd0)?.text
        facts.model = document.entry(EXIFTag.model, in: .ifd0)?.text
        facts.lens = document.entry(EXIFTag.lensModel, in: .exif)?.text
        facts.software = document.entry(EXIFTag.software, in: .ifd0)?.text
        readOrientation(document, into: &facts)
        readDimensions(document, into: &facts)
        facts.saysScreenshot = saysScreenshot(document)
        readLocation(document, into: &facts)
        facts.problems += document.problems
        return facts
    }

    // MARK: - Date

    private static func readDate(_ document: LibexifDocument, into facts: inout EXIFFacts) {
        let candidates: [(tag: UInt16, offset: UInt16, ifd: EXIFDirectory, source: DateSource, name: String)] = [
            (EXIFTag.dateTimeOriginal, EXIFTag.offsetTimeOriginal, .exif, .dateTimeOriginal, "DateTimeOriginal"),
            (EXIFTag.dateTimeDigitized, EXIFTag.offsetTimeDigitized, .exif, .createDate, "CreateDate"),
            (EXIFTag.dateTime, EXIFTag.offsetTime, .ifd0, .modifyDate, "DateTime"),
        ]
        for candidate in candidates {
            // Some writers put the Exif IFD's date tags into IFD0; libexif keeps them there
            // because unknown-tag filtering is off.
            guard let entry = document.entry(candidate.tag, in: candidate.ifd) ?? document.entry(candidate.tag, in: .ifd0) else {
                continue
            }
            guard let text = entry.text, var date = CaptureDate(exif: text) else {
                facts.problems.append("EXIF \(candidate.name) is not a date")
                continue
            }
            // OffsetTime* normally sits in the Exif IFD; some writers put OffsetTime in IFD0.
            let offsetEntry = document.entry(candidate.offset, in: .exif) ?? document.entry(candidate.offset, in: .ifd0)
            if let offsetEntry {
                if let minutes = offsetEntry.text.flatMap(CaptureDate.utcOffsetMinutes) {
                    date.utcOffsetMinutes = minutes
                } else {
                    facts.problems.append("EXIF offset time for \(candidate.name) is not an offset")
                }
            }
            facts.captureDate = date
            facts.dateSource = candidate.source
            return
        }
    }

    // MARK: - Orientation and size

    private static func readOrientation(_ document: LibexifDocument, into facts: inout EXIFFacts) {
        // Some cameras (Nikon D5000) write Orientation only in IFD1, the thumbnail's
        // directory; the thumbnail is cut from the same frame, so it tells the image's too.
        guard let entry = document.entry(EXIFTag.orientation, in: .ifd0) ?? document.entry(EXIFTag.orientation, in: .ifd1) else {
            return
        }
        guard let value = entry.unsigned, (1...8).contains(value) else {
            facts.problems.append("EXIF Orientation is not 1...8")
            return
        }
        facts.orientation = Int(value)
    }

    private static func readDimensions(_ document: LibexifDocument, into facts: inout EXIFFacts) {
        func dimension(_ tag: UInt16, _ ifd: EXIFDirectory, _ name: String) -> Int? {
            guard let entry = document.entry(tag, in: ifd) else { return nil }
            guard let value = entry.unsigned, value > 0 else {
                facts.problems.append("EXIF \(name) is not a positive number")
                return nil
            }
            return Int(value)
        }
        facts.pixelXDimension = dimension(EXIFTag.pixelXDimension, .exif, "PixelXDimension")
        facts.pixelYDimension = dimension(EXIFTag.pixelYDimension, .exif, "PixelYDimension")
        facts.imageWidth = dimension(EXIFTag.imageWidth, .ifd0, "ImageWidth")
        facts.imageLength = dimension(EXIFTag.imageLength, .ifd0, "ImageLength")
    }

    // MARK: - Screenshot

    private static func saysScreenshot(_ document: LibexifDocument) -> Bool {
        var texts: [String] = []
        if let description = document.entry(EXIFTag.imageDescription, in: .ifd0)?.text { texts.append(description) }
        if let comment = document.entry(EXIFTag.userComment, in: .exif) { texts.append(userCommentText(comment)) }
        return texts.contains { $0.lowercased().contains("screenshot") }
    }

    /// The text of a UserComment: an 8-byte character-code prefix (`ASCII`, `UNICODE`,
    /// `JIS`, or zeros) and then the text. Only ever searched for a word, so UTF-16 is
    /// reduced to its ASCII letters by dropping zero bytes.
    static func userCommentText(_ entry: EXIFEntry) -> String {
        let body = entry.bytes.count > 8 ? Array(entry.bytes[8...]) : []
        let letters = body.filter { $0 != 0 }
        return String(decoding: letters, as: UTF8.self)
    }

    // MARK: - Location

    private static func readLocation(_ document: LibexifDocument, into facts: inout EXIFFacts) {
        facts.hasGPSDirectory = document.entryCount(in: .gps) > 0
        guard facts.hasGPSDirectory else { return }
        let latitude = coordinate(
            document, value: EXIFTag.gpsLatitude, ref: EXIFTag.gpsLatitudeRef, negative: "S", name: "latitude", problems: &facts.problems)
        let longitude = coordinate(
            document, value: EXIFTag.gpsLongitude, ref: EXIFTag.gpsLongitudeRef, negative: "W", name: "longitude", problems: &facts.problems
        )
        guard let latitude, let longitude else { return }
        var location = GeoLocation(latitude: latitude, longitude: longitude)
        guard location.isValid else {
            facts.problems.append("EXIF GPS position is out of range")
            return
        }
        if latitude == 0 && longitude == 0 {
            facts.problems.append("EXIF GPS position is exactly 0,0 (often a camera without a fix)")
        }
        if let entry = document.entry(EXIFTag.gpsAltitude, in: .gps) {
            if let metres = entry.rational(at: 0), metres.isFinite {
                let below = document.entry(EXIFTag.gpsAltitudeRef, in: .gps)?.unsigned == 1
                location.altitude = below ? -metres : metres
            } else {
                facts.problems.append("EXIF GPS altitude is not a number")
            }
        }
        facts.location = location
    }

    /// Degrees, minutes, seconds (as many as present) to signed decimal degrees.
    private static func coordinate(
        _ document: LibexifDocument, value tag: UInt16, ref refTag: UInt16, negative: String, name: String, problems: inout [String]
    ) -> Double? {
        guard let entry = document.entry(tag, in: .gps) else { return nil }
        guard entry.format == TIFFType.rational.rawValue || entry.format == TIFFType.signedRational.rawValue, entry.components >= 1,
            let degrees = entry.rational(at: 0)
        else {
            problems.append("EXIF GPS \(name) is empty or not a rational")
            return nil
        }
        var value = degrees
        for (index, divisor) in [(1, 60.0), (2, 3600.0)] where index < entry.components {
            // A 0/0 minute or second part is what some writers put for "none".
            value += (entry.rational(at: index) ?? 0) / divisor
        }
        guard value.isFinite else {
            problems.append("EXIF GPS \(name) is not a number")
            return nil
        }
        if let ref = document.entry(refTag, in: .gps)?.text?.uppercased() {
            if ref.hasPrefix(negative) { value = -abs(value) }
        } else {
            problems.append("EXIF GPS \(name) has no reference (N/S, E/W); taken as positive")
        }
        return value
    }
}
