/// Plans the patches that remove (strip) or round (coarse) the location in one TIFF block:
/// an EXIF block of a JPEG, PNG, WebP or HEIC, or a whole TIFF/DNG file.
///
/// What counts as location here: a GPS IFD holding any entry besides GPSVersionID, and
/// GeoTIFF georeferencing tags in any image directory. A GPS IFD holding only
/// GPSVersionID (or nothing) says nothing about a place and is left as it is.
///
/// Strip: the GPSInfo pointer is removed from the directory that holds it (the directory
/// is rewritten in place with one entry fewer: its later entries and next-IFD offset move
/// up 12 bytes and 12 zero bytes follow), and the GPS IFD and its out-of-line values are
/// zeroed. Readers then find no GPS section at all: no empty IFD (which exiftool warns
/// about), no GPSVersionID the original did not have. GeoTIFF entries are removed the
/// same way (under both policies: georeferencing cannot be rounded).
///
/// Coarse: the GPS IFD is rebuilt in place keeping GPSVersionID (when present),
/// GPSLatitudeRef, GPSLatitude, GPSLongitudeRef and GPSLongitude; latitude and longitude
/// become `round(degrees × 100)/100, 0/1, 0/1`; every other entry and its value is zeroed.
/// Without coordinates that can be rounded with certainty, coarse strips.
struct EXIFLocationRedactor {
    /// Which rewrite to plan (`keep`: location untouched, for `removingIdentity` alone).
    enum Mode { case strip, coarse, keep }

    /// What planning one block came to.
    enum Outcome: Equatable {
        /// No location in the block and nothing that could hide one.
        case noLocation
        /// Location found (`sources`) and removed or rounded.
        case redacted(sources: LocationSources)
        /// No location, but identity tags removed (`removingIdentity`).
        case identityRemoved
        /// The block could not be walked with certainty and was blanked whole (fail closed).
        case blanked(reason: String)
        /// The block could not be walked with certainty and cannot be blanked without
        /// destroying the image (a whole TIFF file): the file must be withheld.
        case uncertain(reason: String)
    }

    let mode: Mode
    /// Whether blanking the whole block is allowed (false when the block is the image file).
    let mayBlankBlock: Bool
    /// Whether the tags of `IdentityTags.exif` are removed too (`--metadata private`), the
    /// same way as GeoTIFF tags: out of the directory, their values zeroed.
    var removingIdentity = false

    /// Plans the patches for `structure` (already walked) into `patches`.
    func plan(_ structure: TIFFLayout, source: some ByteSource, into patches: inout PatchList) throws(ByteSourceError) -> Outcome {
        if let problem = structure.problems.first(where: \.mayHideLocation) {
            let reason = "EXIF block at \(structure.block.offset) cannot be walked with certainty (\(problem))"
            guard mayBlankBlock else { return .uncertain(reason: reason) }
            blank(structure.block, into: &patches)
            return .blanked(reason: reason)
        }
        guard let order = structure.byteOrder else { return .noLocation }
        let located = mode == .keep ? [] : structure.gpsDirectories.filter(Self.holdsLocation)
        // Directories that lose entries: those holding a tag `removes` takes out, and the
        // parents of a located GPS directory (their GPSInfo pointer goes). Tags are tested
        // one by one against fixed tables: this runs five times per file at index time.
        var sources: LocationSources = []
        var changed: [Int64] = []
        for directory in structure.directories where directory.kind != .gps {
            var removesAny = false
            for entry in directory.entries where removes(entry.tag) {
                removesAny = true
                if EXIFTag.isGeoTIFF(entry.tag) && mode != .keep { sources.insert(.geoTIFF) }
            }
            if removesAny { changed.append(directory.offset) }
        }
        if !located.isEmpty { sources.insert(.exifGPS) }
        var gpsParents: [Int64] = []
        for gps in located {
            let relative = gps.offset - structure.block.offset
            let parents = structure.directories.filter { directory in
                directory.kind != .gps
                    && directory.entries.contains { $0.tag == EXIFTag.gpsIFD && !$0.isOutOfLine && Int64($0.valueField) == relative }
            }
            if mode == .coarse, try coarsen(gps, order: order, source: source, into: &patches) { continue }
            zeroValues(of: gps.entries, into: &patches)
            if parents.isEmpty {
                // No pointer to take away (not expected): leave an IFD with no entries.
                rewrite(gps, keeping: [], order: order, into: &patches)
            } else {
                patches.fill(gps.byteRange, with: 0)
                for parent in parents where !gpsParents.contains(parent.offset) {
                    gpsParents.append(parent.offset)
                    if !changed.contains(parent.offset) { changed.append(parent.offset) }
                }
            }
        }
        for directory in structure.directories where directory.kind != .gps && changed.contains(directory.offset) {
            let dropsPointer = gpsParents.contains(directory.offset)
            let isRemoved = { (tag: UInt16) in removes(tag) || (dropsPointer && tag == EXIFTag.gpsIFD) }
            zeroValues(of: directory.entries.filter { isRemoved($0.tag) && $0.tag != EXIFTag.gpsIFD }, into: &patches)
            rewrite(directory, keeping: directory.entries.filter { !isRemoved($0.tag) }, order: order, into: &patches)
        }
        if sources.isEmpty && !changed.isEmpty { return .identityRemoved }
        return sources.isEmpty ? .noLocation : .redacted(sources: sources)
    }

    /// Whether an image directory's entry with `tag` is taken out in this mode: GeoTIFF
    /// tags when hiding location, identity tags when removing identity.
    private func removes(_ tag: UInt16) -> Bool {
        (mode != .keep && EXIFTag.isGeoTIFF(tag)) || (removingIdentity && IdentityTags.isEXIFIdentity(tag))
    }

    /// Whether a GPS directory holds anything besides GPSVersionID.
    static func holdsLocation(_ directory: TIFFDirectory) -> Bool {
        directory.entries.contains { $0.tag != EXIFTag.gpsVersionID }
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

    /// Rewrites the directory's bytes in place with `entries` (at most as many as it had,
    /// each written back as stored), its own next-IFD offset right after them and zeros
    /// over what is left of the old directory.
    private func rewrite(_ directory: TIFFDirectory, keeping entries: [TIFFEntry], order: TIFFByteOrder, into patches: inout PatchList) {
        let range = directory.byteRange
        var bytes = [UInt8](repeating: 0, count: Int(range.length))
        guard entries.count <= directory.entries.count else {
            patches.add(at: range.offset, bytes)
            return
        }
        bytes.withUnsafeMutableBytes { out in
            order.put(UInt16(entries.count), into: out, at: 0)
            for (index, entry) in entries.enumerated() {
                let at = 2 + 12 * index
                order.put(entry.tag, into: out, at: at)
                order.put(entry.type, into: out, at: at + 2)
                order.put(entry.count, into: out, at: at + 4)
                order.put(entry.valueField, into: out, at: at + 8)
            }
            if let next = directory.nextIFD { order.put(next, into: out, at: 2 + 12 * entries.count) }
        }
        patches.add(at: range.offset, bytes)
    }

    /// Rebuilds `directory` with rounded coordinates; false (nothing planned) when the
    /// coordinates cannot be rounded with certainty.
    private func coarsen(_ directory: TIFFDirectory, order: TIFFByteOrder, source: some ByteSource, into patches: inout PatchList)
        throws(ByteSourceError) -> Bool
    {
        func first(_ tag: UInt16) -> TIFFEntry? { directory.entries.first { $0.tag == tag } }
        guard let latRef = first(EXIFTag.gpsLatitudeRef), let lonRef = first(EXIFTag.gpsLongitudeRef),
            let lat = first(EXIFTag.gpsLatitude), let lon = first(EXIFTag.gpsLongitude),
            latRef.value != nil, !latRef.isOutOfLine, lonRef.value != nil, !lonRef.isOutOfLine,
            let latDegrees = try degrees(lat, order: order, source: source),
            let lonDegrees = try degrees(lon, order: order, source: source)
        else { return false }
        zeroValues(of: directory.entries.filter { $0.entryOffset != lat.entryOffset && $0.entryOffset != lon.entryOffset }, into: &patches)
        for (entry, value) in [(lat, latDegrees), (lon, lonDegrees)] {
            guard let range = entry.value else { continue }
            // value is in 0...180, so this is round-half-up without libm (PhotoCore links none).
            let hundredths = UInt32(value * 100 + 0.5)
            // hundredths/100, 0/1, 0/1
            var rational = [UInt8](repeating: 0, count: 24)
            rational.withUnsafeMutableBytes { out in
                for (index, word) in [hundredths, 100, 0, 1, 0, 1].enumerated() { order.put(UInt32(word), into: out, at: 4 * index) }
            }
            patches.add(at: range.offset, rational)
        }
        // The version entry only when the file has one, unchanged, so the kept entries fit.
        let version = directory.entries.first { $0.tag == EXIFTag.gpsVersionID }.map { [$0] } ?? []
        rewrite(directory, keeping: version + [latRef, lat, lonRef, lon], order: order, into: &patches)
        return true
    }

    /// Reads a GPSLatitude/GPSLongitude value (3 RATIONALs: degrees, minutes, seconds) as
    /// decimal degrees, or nil when it is not that shape or not a sane angle.
    private func degrees(_ entry: TIFFEntry, order: TIFFByteOrder, source: some ByteSource) throws(ByteSourceError) -> Double? {
        guard entry.type == TIFFType.rational.rawValue, entry.count == 3, let range = entry.value, range.length == 24 else { return nil }
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
