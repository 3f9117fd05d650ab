/// Plans the patches that remove (strip) or round (coarse) the location in one TIFF block:
/// an EXIF block of a JPEG, PNG, WebP or HEIC, or a whole TIFF/DNG file.
///
/// Strip: every out-of-line value of the GPS IFD is zeroed and the IFD itself is rewritten
/// in place as a one-entry IFD holding only GPSVersionID (2.2.0.0), next-IFD offset 0, the
/// old entries zeroed. The GPSInfo pointer stays valid. One entry rather than none because
/// exiftool warns "[minor] Empty GPSInfo data" on an empty GPS IFD, and GPSVersionID says
/// nothing about where a photo was taken.
///
/// Coarse: the GPS IFD is rebuilt in place keeping GPSVersionID, GPSLatitudeRef,
/// GPSLatitude, GPSLongitudeRef and GPSLongitude; latitude and longitude become
/// `round(degrees × 100)/100, 0/1, 0/1`; every other entry and its value is zeroed.
struct EXIFLocationRedactor {
    /// Which rewrite to plan.
    enum Mode { case strip, coarse }

    /// What planning one block came to.
    enum Outcome: Equatable {
        /// No GPS directory and nothing that could hide one.
        case noLocation
        /// GPS directories rewritten.
        case redacted(directories: Int)
        /// The block could not be walked with certainty and was blanked whole (fail closed).
        case blanked(reason: String)
        /// The block could not be walked with certainty and cannot be blanked without
        /// destroying the image (a whole TIFF file): the file must be withheld.
        case uncertain(reason: String)
    }

    let mode: Mode
    /// Whether blanking the whole block is allowed (false when the block is the image file).
    let mayBlankBlock: Bool

    /// Plans the patches for `structure` (already walked) into `patches`.
    func plan(_ structure: TIFFLayout, source: some ByteSource, into patches: inout PatchList) throws(ByteSourceError) -> Outcome {
        if let problem = structure.problems.first(where: \.mayHideLocation) {
            let reason = "EXIF block at \(structure.block.offset) cannot be walked with certainty (\(problem))"
            guard mayBlankBlock else { return .uncertain(reason: reason) }
            blank(structure.block, into: &patches)
            return .blanked(reason: reason)
        }
        guard let order = structure.byteOrder else { return .noLocation }
        let gps = structure.gpsDirectories
        guard !gps.isEmpty else { return .noLocation }
        for directory in gps {
            switch mode {
            case .strip: strip(directory, order: order, into: &patches)
            case .coarse: try coarsen(directory, order: order, source: source, into: &patches)
            }
        }
        return .redacted(directories: gps.count)
    }

    /// Replaces the block with a valid, empty TIFF structure of the same length: a
    /// little-endian header pointing at an IFD with no entries right after it, then zeros.
    /// The enclosing segment, chunk or item keeps its size, so the container stays valid.
    func blank(_ block: ByteRange, into patches: inout PatchList) {
        guard block.length > 0 else { return }
        guard block.length <= Int64(PatchList.maxTotalBytes) else {
            patches.fill(block, with: 0)  // refused as too large: the planner withholds the file
            return
        }
        var bytes = [UInt8](repeating: 0, count: Int(block.length))
        let header: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        if bytes.count >= 14 {
            bytes.replaceSubrange(0..<8, with: header)
        }
        patches.add(at: block.offset, bytes)
    }

    /// Zeros the out-of-line values of `entries`.
    private func zeroValues(of entries: [TIFFEntry], into patches: inout PatchList) {
        for entry in entries where entry.isOutOfLine {
            if let value = entry.value { patches.fill(value, with: 0) }
        }
    }

    /// The 12 bytes of an entry, in the block's byte order.
    private func encode(_ entry: TIFFEntry, order: TIFFByteOrder) -> [UInt8] {
        order.bytes(of: entry.tag) + order.bytes(of: entry.type) + order.bytes(of: entry.count) + order.bytes(of: entry.valueField)
    }

    /// A GPSVersionID entry: the original one when it is the standard inline 4 BYTEs,
    /// else 2.2.0.0.
    private func versionEntry(in directory: TIFFDirectory, order: TIFFByteOrder) -> [UInt8] {
        if let entry = directory.entries.first(where: { $0.tag == EXIFTag.gpsVersionID }), entry.type == TIFFType.byte, entry.count == 4 {
            return encode(entry, order: order)
        }
        return order.bytes(of: EXIFTag.gpsVersionID) + order.bytes(of: TIFFType.byte) + order.bytes(of: UInt32(4)) + [2, 2, 0, 0]
    }

    /// Rewrites the directory's bytes in place with `entries` (12 bytes each), a next-IFD
    /// offset of 0 and zeros over what is left of the old directory.
    private func rewrite(_ directory: TIFFDirectory, entries: [[UInt8]], order: TIFFByteOrder, into patches: inout PatchList) {
        let range = directory.byteRange
        var bytes = [UInt8](repeating: 0, count: Int(range.length))
        // Only when the new directory fits in the old one (it has at most as many entries);
        // otherwise leave it empty, which always fits.
        guard entries.count <= directory.entries.count else {
            patches.add(at: range.offset, bytes)
            return
        }
        bytes.replaceSubrange(0..<2, with: order.bytes(of: UInt16(entries.count)))
        for (index, entry) in entries.enumerated() {
            bytes.replaceSubrange(2 + 12 * index..<14 + 12 * index, with: entry)
        }
        patches.add(at: range.offset, bytes)
    }

    private func strip(_ directory: TIFFDirectory, order: TIFFByteOrder, into patches: inout PatchList) {
        zeroValues(of: directory.entries, into: &patches)
        rewrite(
            directory, entries: directory.entries.isEmpty ? [] : [versionEntry(in: directory, order: order)], order: order, into: &patches)
    }

    private func coarsen(_ directory: TIFFDirectory, order: TIFFByteOrder, source: some ByteSource, into patches: inout PatchList)
        throws(ByteSourceError)
    {
        let byTag = Dictionary(directory.entries.map { ($0.tag, $0) }, uniquingKeysWith: { first, _ in first })
        guard let latRef = byTag[EXIFTag.gpsLatitudeRef], let lonRef = byTag[EXIFTag.gpsLongitudeRef],
            let lat = byTag[EXIFTag.gpsLatitude], let lon = byTag[EXIFTag.gpsLongitude],
            latRef.value != nil, !latRef.isOutOfLine, lonRef.value != nil, !lonRef.isOutOfLine,
            let latDegrees = try degrees(lat, order: order, source: source),
            let lonDegrees = try degrees(lon, order: order, source: source)
        else {
            // Nothing that can be rounded with certainty: strip instead.
            strip(directory, order: order, into: &patches)
            return
        }
        zeroValues(of: directory.entries.filter { $0.entryOffset != lat.entryOffset && $0.entryOffset != lon.entryOffset }, into: &patches)
        for (entry, value) in [(lat, latDegrees), (lon, lonDegrees)] {
            guard let range = entry.value else { continue }
            // value is in 0...180, so this is round-half-up without libm (PhotoCore links none).
            let hundredths = UInt32(value * 100 + 0.5)
            let rational =
                order.bytes(of: hundredths) + order.bytes(of: UInt32(100)) + order.bytes(of: UInt32(0)) + order.bytes(of: UInt32(1))
                + order.bytes(of: UInt32(0)) + order.bytes(of: UInt32(1))
            patches.add(at: range.offset, rational)
        }
        // The version entry only when the file has one, so the kept entries always fit.
        let version = byTag[EXIFTag.gpsVersionID] != nil ? [versionEntry(in: directory, order: order)] : []
        let kept =
            version + [encode(latRef, order: order), encode(lat, order: order), encode(lonRef, order: order), encode(lon, order: order)]
        rewrite(directory, entries: kept, order: order, into: &patches)
    }

    /// Reads a GPSLatitude/GPSLongitude value (3 RATIONALs: degrees, minutes, seconds) as
    /// decimal degrees, or nil when it is not that shape or not a sane angle.
    private func degrees(_ entry: TIFFEntry, order: TIFFByteOrder, source: some ByteSource) throws(ByteSourceError) -> Double? {
        guard entry.type == TIFFType.rational, entry.count == 3, let range = entry.value, range.length == 24 else { return nil }
        let bytes = try source.read(at: range.offset, count: 24)
        guard bytes.count == 24 else { return nil }
        var total = 0.0
        for (index, scale) in [1.0, 60.0, 3600.0].enumerated() {
            guard let numerator = order.uint32(bytes, at: index * 8), let denominator = order.uint32(bytes, at: index * 8 + 4) else {
                return nil
            }
            if numerator == 0 { continue }
            guard denominator != 0 else { return nil }
            total += Double(numerator) / Double(denominator) / scale
        }
        guard total.isFinite, total >= 0, total <= 180 else { return nil }
        return total
    }
}
