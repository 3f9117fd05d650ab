/// Computes, at index time, how a file is served to views that hide location: the `strip`
/// and `coarse` plans over the original bytes, from the container layout the walkers found.
/// Its walk is photofs's one location model: `RedactionReport.found` lists every place the
/// file carries a location, `has:location` tests exactly that set, and the plans act on
/// exactly those places.
///
/// - EXIF blocks (primary, MPF images, HEIF/JXL items, whole TIFF files): GPS IFDs holding
///   more than GPSVersionID and GeoTIFF tags (see `EXIFLocationRedactor`); a block that
///   cannot be walked with certainty is replaced by an empty TIFF structure of the same
///   length (fail closed), or, when the block is the image file itself (TIFF, DNG, RAW),
///   the file is withheld.
/// - XMP packets (those the layout lists and those in a TIFF XMLPacket tag): location
///   properties replaced by spaces (see `XMPLocationScanner`); when a coordinate name
///   survives, the whole packet becomes spaces. Under `coarse`, `exif:GPSLatitude`/
///   `GPSLongitude` are rewritten rounded to 0.01° (the property keeps its form, the
///   shorter value is followed by spaces after the property); every other location
///   property is blanked, and so is a coordinate in a notation not understood.
/// - IPTC-IIM in Photoshop image resources (JPEG APP13, TIFF tag 34377), in a TIFF's
///   IPTC-NAA tag (33723), in an AFCP trailer and inside maker notes (Nikon Capture keeps a
///   copy): place-name datasets renamed to an undefined dataset and blanked, under both
///   policies (see `IPTCLocationRedactor`).
/// - FLIR thermal records: the GPS record freed and zeroed (see `FLIRLocationRedactor`).
/// - GoPro GPMF tracks (`gpmd` samples, `layout.gpmfSamples`): every item of a GPS stream
///   renamed `FREE` and zeroed; under `coarse` positions rounded to 0.01° instead (see
///   `GPMFLocationRedactor`). A sample that does not walk with certainty withholds the file.
/// - Video location payloads (`©xyz`, `loci`, `gps `, `gps0`, the ISO 6709 `mdta` value):
///   zeroed. A zeroed `©xyz` payload reads as an empty string (length 0), which exiftool
///   and players skip. An `ilst` item value (the `mdta` ISO 6709 key, an iTunes `©xyz`
///   item) becomes spaces and its item's key index becomes 0 (no key), so readers skip
///   the item instead of listing an empty GPSCoordinates. Under `coarse` an ISO 6709
///   string is rewritten rounded to 0.01° without altitude (`ISO6709Coarsener`): the
///   `©xyz` length field shrinks to the new text and the rest is zeroed; an item value is
///   padded with spaces. `loci`, `gps `, `gps0` are blanked.
/// - Bytes after a JPEG's image data (`ImageTrailer`): an appended video's location
///   payloads (`layout.appendedVideos`) as a video's; what no walker explains
///   (`trailerBlanks`, Samsung trailer blocks other than the video) zeroed, counted as
///   `unverified`. The still's own bytes are never patched for it.
/// - Checksummed chunks (PNG): a chunk whose covered bytes are patched gets a patch with
///   the CRC-32 recomputed over the patched bytes.
/// - A container that could not be parsed to its end (`isComplete == false`), or metadata
///   the format keeps where photofs cannot read or patch it (`unreadableMetadata`):
///   withheld, and counted as a location (`unverified`).
///
/// `--metadata private` gets three more plans (`PrivatePlans`, one per location policy),
/// each the location plan's work plus, in the same patch list so that rewrites of one
/// directory or one checksummed chunk compose: the `IdentityTags.exif` entries removed from
/// every image directory (values zeroed, maker notes included); XMP blanked outside
/// `IdentityTags.xmpKept` (`XMPIdentityScanner`; the location blanks are laid over it);
/// the IPTC identity datasets and the Photoshop resources not kept; JPEG COM segments,
/// PNG text chunks, QuickTime user-data atoms, `meta` children and `ilst` items, maker
/// `uuid` atoms, GIF comment/text/application extensions and AVI `INFO` texts outside
/// `IdentityTags`' kept lists renamed and zeroed (`retaggedBlocks`), unread JPEG APPn segments and
/// FLIR records zeroed (`opaqueBlocks`). A file whose location plan is withheld, or whose
/// format's identity metadata photofs does not read (`privateRefusal`), is withheld.
public enum RedactionPlanner {
    /// The plans for `layout`, reading the bytes the layout points to from `source`.
    public static func plans(layout: ContainerLayout, source: some ByteSource) -> RedactionPlans {
        report(layout: layout, source: source).plans
    }

    /// The plans with notes on what was done (for `photofs show`); never contains a
    /// coordinate.
    public static func report(layout: ContainerLayout, source: some ByteSource) -> RedactionReport {
        guard layout.isComplete else {
            let why = layout.problems.isEmpty ? "the container could not be parsed to its end" : layout.problems.joined(separator: "; ")
            let plan = RedactionPlan.withheld(reason: "container not fully parsed: \(why)")
            return RedactionReport(
                plans: RedactionPlans(strip: plan, coarse: plan, privatePlans: .all(plan)), notes: [], found: .unverified)
        }
        if let why = layout.unreadableMetadata { return withheldReport(reason: why) }
        var notes: [String]? = []
        var found: LocationSources = []
        // The GPMF samples are read and walked once for every plan.
        var gpmf: GPMFLocationRedactor.Track?
        if !layout.gpmfSamples.isEmpty {
            let scanned = Result { () throws(ByteSourceError) in try GPMFLocationRedactor.scan(layout.gpmfSamples, source: source) }
            switch scanned {
            case .success(.success(let track)): gpmf = track
            case .success(.failure(let failure)):
                return withheldReport(reason: failure.reason)
            case .failure(let error):
                return withheldReport(reason: "could not read the file while planning (\(error))")
            }
        }
        // Each EXIF block is walked once for both plans.
        let walker = TIFFWalker()
        let tiffs = layout.exifBlocks.map { walker.walk(source, block: $0) }
        // So is each XMP packet read and scanned once.
        let xmp = XMPScans()
        let strip = plan(layout: layout, tiffs: tiffs, gpmf: gpmf, xmp: xmp, source: source, mode: .strip, notes: &notes, found: &found)
        // Only the strip plan's notes are kept: the others' are not even written (nil).
        var ignored: [String]?
        var foundAgain: LocationSources = []
        // Coarse differs from strip only where strip found a location (a GPS directory, an
        // XMP coordinate, a video payload, a GPMF stream are rounded instead of removed);
        // everything else either plans alike. A file with none has one plan for both, public
        // and private alike, made once.
        var sameCoarse = false
        if found.isEmpty, case .patches = strip { sameCoarse = true }
        let coarse =
            sameCoarse
            ? strip
            : plan(layout: layout, tiffs: tiffs, gpmf: gpmf, xmp: xmp, source: source, mode: .coarse, notes: &ignored, found: &foundAgain)
        let privatePlans: PrivatePlans
        if let why = privateRefusal(layout) {
            privatePlans = .all(.withheld(reason: why))
        } else {
            // A private plan also hides what the location plan hides: withheld with it.
            func privatePlan(_ mode: EXIFLocationRedactor.Mode) -> RedactionPlan {
                let base = mode == .strip ? strip : mode == .coarse ? coarse : .identity
                if case .withheld = base { return base }
                return plan(
                    layout: layout, tiffs: tiffs, gpmf: gpmf, xmp: xmp, source: source, mode: mode, private: true, notes: &ignored,
                    found: &foundAgain)
            }
            let privateKeep = privatePlan(.keep)
            let privateStrip = privatePlan(.strip)
            privatePlans = PrivatePlans(keep: privateKeep, strip: privateStrip, coarse: sameCoarse ? privateStrip : privatePlan(.coarse))
        }
        return RedactionReport(
            plans: RedactionPlans(strip: strip, coarse: coarse, privatePlans: privatePlans), notes: notes ?? [], found: found)
    }

    /// The report of a file withheld from every view that changes bytes, counted as located.
    private static func withheldReport(reason: String) -> RedactionReport {
        let plan = RedactionPlan.withheld(reason: reason)
        return RedactionReport(plans: RedactionPlans(strip: plan, coarse: plan, privatePlans: .all(plan)), notes: [], found: .unverified)
    }

    /// Why a file cannot be served to private apps at all, if it cannot: formats whose
    /// identity metadata photofs does not read (MPEG-TS streams, BigTIFF) and raw files,
    /// whose decoding needs the maker note that private removes.
    static func privateRefusal(_ layout: ContainerLayout) -> String? {
        switch layout.format {
        case .mpegTS: return "MPEG-TS metadata is not made private yet"
        case .raw: return "raw decoding needs the maker note, which private removes"
        case .bigTIFF: return "BigTIFF is not walked"
        default: return nil
        }
    }

    private static func plan(
        layout: ContainerLayout, tiffs: [TIFFLayout], gpmf: GPMFLocationRedactor.Track?, xmp: XMPScans, source: some ByteSource,
        mode: EXIFLocationRedactor.Mode, private: Bool = false,
        notes: inout [String]?, found: inout LocationSources
    )
        -> RedactionPlan
    {
        do throws(ByteSourceError) {
            var patches = PatchList()
            let imageIsTIFF = [MediaFormat.tiff, .dng, .raw].contains(layout.format)
            var redactor = EXIFLocationRedactor(mode: mode, mayBlankBlock: !imageIsTIFF)
            redactor.removingIdentity = `private`
            for tiff in tiffs {
                let block = tiff.block
                switch try redactor.plan(tiff, source: source, into: &patches) {
                case .noLocation, .identityRemoved: break
                case .redacted(let sources):
                    found.formUnion(sources)
                    notes?.append("EXIF block at \(block.offset): \(sources.names.joined(separator: " and ")) removed")
                case .blanked(let reason):
                    found.insert(.unverified)
                    notes?.append("\(reason): block blanked")
                case .uncertain(let reason):
                    found.insert(.unverified)
                    return .withheld(reason: reason)
                }
            }
            // XMP kept in a TIFF's XMLPacket tag (700), IPTC in its IPTC-NAA tag (33723) and
            // Photoshop resources in tag 34377, which the container layout does not list:
            // TIFF, DNG and raw files carry them there.
            let entries = tiffs.flatMap { tiff in tiff.directories.filter { $0.kind != .gps }.flatMap(\.entries) }
            let embedded = entries.filter { $0.tag == EXIFTag.xmlPacket }.compactMap(\.value)
            for packet in layout.xmpPackets + embedded {
                // Identity blanks first: the location blanks and rewrites win where they overlap.
                let blankedWhole = `private` ? try blankXMPIdentity(packet, scans: xmp, source: source, into: &patches) : false
                guard mode != .keep else { continue }
                if blankedWhole {
                    // Nothing of the packet is left to blank or round; it still counts as located.
                    if try xmp.location(of: packet, source: source).1.foundLocation { found.insert(.xmp) }
                    continue
                }
                if try blankXMP(packet, scans: xmp, source: source, coarse: mode == .coarse, into: &patches, notes: &notes) {
                    found.insert(.xmp)
                }
            }
            var iptc = IPTCLocationRedactor()
            if `private` {
                iptc.datasets = mode == .keep ? IdentityTags.iptcDatasets : IdentityTags.iptcAndLocationDatasets
                iptc.envelopeDatasets = IdentityTags.iptcEnvelopeDatasets
                iptc.blankingOtherResources = true
            }
            let resourceBlocks = layout.photoshopResources + entries.filter { $0.tag == EXIFTag.photoshop }.compactMap(\.value)
            let iptcBlocks = entries.filter { $0.tag == EXIFTag.iptc }.compactMap(\.value) + layout.iptcBlocks
            for (block, isResources) in resourceBlocks.map({ ($0, true) }) + iptcBlocks.map({ ($0, false) }) {
                let outcome =
                    isResources
                    ? try iptc.plan(block, source: source, into: &patches) : try iptc.planIPTC(block, source: source, into: &patches)
                switch outcome {
                case .noLocation: break
                case .redacted(let count):
                    found.insert(.iptc)
                    notes?.append("IPTC at \(block.offset): \(count) place name(s) removed")
                case .blanked(let reason):
                    found.insert(.unverified)
                    notes?.append("\(reason): block blanked")
                case .uncertain(let reason):
                    found.insert(.unverified)
                    return .withheld(reason: reason)
                }
            }
            // IPTC copies inside maker notes (EXIF tag 0x927C).
            for note in entries.filter({ $0.tag == 0x927C && $0.isOutOfLine }).compactMap(\.value) {
                if case .redacted(let count) = try iptc.planEmbedded(note, source: source, into: &patches) {
                    found.insert(.iptc)
                    notes?.append("maker note at \(note.offset): \(count) IPTC place name(s) removed")
                }
            }
            for payload in mode == .keep ? [] : layout.movie?.locationPayloads ?? [] {
                found.insert(.movie)
                try blankMovieLocation(payload, source: source, coarse: mode == .coarse, into: &patches)
                notes?.append("video location payload at \(payload.offset) blanked")
            }
            for payload in mode == .keep ? [] : layout.appendedVideos.flatMap(\.locationPayloads) {
                found.insert(.appendedVideo)
                try blankMovieLocation(payload, source: source, coarse: mode == .coarse, into: &patches)
                notes?.append("location payload of the video appended at \(payload.offset) blanked")
            }
            if mode != .keep, !layout.trailerBlanks.isEmpty {
                found.insert(.unverified)
                for range in layout.trailerBlanks { patches.fill(range, with: 0) }
                notes?.append("\(layout.trailerBlanks.count) stretch(es) after the image data not read with certainty: zeroed")
            }
            if let gpmf, mode != .keep {
                switch GPMFLocationRedactor(coarse: mode == .coarse).plan(gpmf, into: &patches) {
                case .noLocation: break
                case .redacted:
                    found.insert(.gpmf)
                    notes?.append("GoPro GPS track removed")
                case .uncertain(let reason):
                    found.insert(.gpmf)
                    return .withheld(reason: reason)
                }
            }
            if !layout.flirChunks.isEmpty && mode != .keep {
                switch try FLIRLocationRedactor().plan(layout.flirChunks, source: source, into: &patches) {
                case .noLocation: break
                case .redacted:
                    found.insert(.flir)
                    notes?.append("FLIR GPS record removed")
                case .uncertain(let reason):
                    found.insert(.unverified)
                    return .withheld(reason: reason)
                }
            }
            if `private` {
                for block in layout.retaggedBlocks {
                    patches.add(at: block.tag.offset, block.replacement)
                    patches.fill(block.data, with: 0)
                }
                // A FLIR record (camera serials, thermal data) goes whole, its segment signature too.
                let flir = layout.flirChunks.map { ByteRange(offset: $0.data.offset - 8, length: $0.data.length + 8) }
                for block in layout.opaqueBlocks + flir { patches.fill(block, with: 0) }
            }
            guard !patches.refused else {
                return .withheld(reason: "the redaction would patch more than \(PatchList.maxTotalBytes) bytes")
            }
            var merged = patches.merged()
            if !layout.checksummedChunks.isEmpty && !merged.isEmpty {
                try addChecksums(layout.checksummedChunks, to: &patches, merged: merged, source: source)
                merged = patches.merged()
            }
            guard !patches.refused else {
                return .withheld(reason: "the redaction would patch more than \(PatchList.maxTotalBytes) bytes")
            }
            return .patches(merged)
        } catch {
            return .withheld(reason: "could not read the file while planning (\(error))")
        }
    }

    /// Reads exactly `range` or throws.
    static func read(_ range: ByteRange, from source: some ByteSource) throws(ByteSourceError) -> [UInt8] {
        guard range.offset >= 0, range.length >= 0, range.length <= Int64(Int32.max), range.offset <= source.size - range.length else {
            throw .outOfRange(offset: range.offset)
        }
        let bytes = try source.read(at: range.offset, count: Int(range.length))
        guard bytes.count == Int(range.length) else { throw .outOfRange(offset: range.offset) }
        return bytes
    }

    /// Blanks the location in one XMP packet; true when the packet placed the photo.
    private static func blankXMP(
        _ packet: ByteRange, scans: XMPScans, source: some ByteSource, coarse: Bool, into patches: inout PatchList, notes: inout [String]?
    ) throws(ByteSourceError) -> Bool {
        let (text, scanner) = try scans.location(of: packet, source: source)
        if scanner.uncertain {
            patches.add(at: packet.offset, emptyXMP(replacing: text))
            notes?.append("XMP packet at \(packet.offset): location not found with certainty, packet blanked")
            return true
        }
        for blank in scanner.blanks where !blank.isEmpty {
            patches.fill(ByteRange(offset: packet.offset + Int64(blank.lowerBound), length: Int64(blank.count)), with: 0x20)
        }
        // Added after the blanks, so these rewrites win where they overlap.
        for (property, value) in coarse ? scanner.coordinates : [] {
            guard let rounded = XMPCoordinateCoarsener.coarsen(text[value]) else { continue }
            let rewritten =
                Array(text[property.lowerBound..<value.lowerBound]) + rounded + Array(text[value.upperBound..<property.upperBound])
            guard rewritten.count <= property.count else { continue }
            patches.add(
                at: packet.offset + Int64(property.lowerBound),
                rewritten + [UInt8](repeating: 0x20, count: property.count - rewritten.count))
        }
        if !scanner.blanks.isEmpty {
            notes?.append("XMP packet at \(packet.offset): \(scanner.blanks.count) location propert(ies) blanked")
        }
        return scanner.foundLocation
    }

    /// Blanks what `--metadata private` removes from one XMP packet (`XMPIdentityScanner`);
    /// true when the packet is malformed and was replaced whole.
    private static func blankXMPIdentity(_ packet: ByteRange, scans: XMPScans, source: some ByteSource, into patches: inout PatchList)
        throws(ByteSourceError) -> Bool
    {
        let scanner = try scans.identity(of: packet, source: source)
        if scanner.malformed {
            patches.add(at: packet.offset, emptyXMP(replacing: try scans.text(of: packet, source: source)))
            return true
        }
        for blank in scanner.blanks where !blank.isEmpty {
            patches.fill(ByteRange(offset: packet.offset + Int64(blank.lowerBound), length: Int64(blank.count)), with: 0x20)
        }
        for rewrite in scanner.rewrites {
            patches.add(at: packet.offset + Int64(rewrite.range.lowerBound), rewrite.bytes)
        }
        return false
    }

    private static func blankMovieLocation(_ payload: ByteRange, source: some ByteSource, coarse: Bool, into patches: inout PatchList)
        throws(ByteSourceError)
    {
        guard payload.length > 0 else { return }
        // Location payloads are short; a long one is read only as far as needed to recognise it.
        let bytes = try read(ByteRange(offset: payload.offset, length: min(payload.length, 4096)), from: source)
        if let itemKey = try itemListKeyOffset(of: payload, source: source) {
            // An `ilst` item value. Blanking the text alone leaves an empty GPSCoordinates tag
            // that exiftool still lists, so `strip` also sets the item's key index to 0, which
            // names no key (keys count from 1): readers skip the item.
            if coarse, payload.length == Int64(bytes.count), let rounded = ISO6709Coarsener.coarsen(bytes) {
                patches.add(at: payload.offset, rounded + [UInt8](repeating: 0x20, count: bytes.count - rounded.count))
            } else {
                patches.fill(payload, with: 0x20)
                patches.add(at: itemKey, [0, 0, 0, 0])
            }
            return
        }
        // A QuickTime text atom (©xyz): 16-bit length, 16-bit language, then the text.
        if coarse, payload.length == Int64(bytes.count), bytes.count >= 4 {
            let length = Int(bytes[0]) << 8 | Int(bytes[1])
            if 4 + length <= bytes.count, let rounded = ISO6709Coarsener.coarsen(Array(bytes[4..<(4 + length)])) {
                let header: [UInt8] = [
                    UInt8(truncatingIfNeeded: rounded.count >> 8), UInt8(truncatingIfNeeded: rounded.count), bytes[2], bytes[3],
                ]
                patches.add(at: payload.offset, header + rounded + [UInt8](repeating: 0, count: bytes.count - 4 - rounded.count))
                return
            }
        }
        patches.fill(payload, with: 0)
    }

    /// The bytes that replace a whole XMP packet: an empty `x:xmpmeta` element then spaces
    /// when the packet starts with markup and is long enough (exiftool reads a packet of
    /// spaces alone as "Invalid XMP"), else only spaces (a piece of extended XMP).
    static func emptyXMP(replacing text: [UInt8]) -> [UInt8] {
        let empty = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8)
        var bytes = [UInt8](repeating: 0x20, count: text.count)
        let startsWithMarkup = text.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "<")
        if startsWithMarkup && text.count >= empty.count {
            bytes.replaceSubrange(0..<empty.count, with: empty)
        }
        return bytes
    }

    /// When `payload` is the value of an `ilst` item (`[item size][key] [data size]['data']
    /// [type][locale] value`, the data atom filling the item), the absolute offset of the
    /// item's 4-byte key; nil when the bytes before the payload are not that shape.
    private static func itemListKeyOffset(of payload: ByteRange, source: some ByteSource) throws(ByteSourceError) -> Int64? {
        guard payload.offset >= 24 else { return nil }
        let head = try read(ByteRange(offset: payload.offset - 24, length: 24), from: source)
        let itemSize = Int64(head[0]) << 24 | Int64(head[1]) << 16 | Int64(head[2]) << 8 | Int64(head[3])
        let dataSize = Int64(head[8]) << 24 | Int64(head[9]) << 16 | Int64(head[10]) << 8 | Int64(head[11])
        guard head[12...15].elementsEqual(Array("data".utf8)), dataSize == 16 + payload.length, itemSize == dataSize + 8 else { return nil }
        return payload.offset - 20
    }

    private static func addChecksums(_ chunks: [ChecksummedChunk], to patches: inout PatchList, merged: [Patch], source: some ByteSource)
        throws(ByteSourceError)
    {
        for chunk in chunks {
            let covered = chunk.covered
            guard covered.length >= 0 else { continue }
            let touching = merged.filter { $0.offset < covered.end && $0.end > covered.offset }
            guard !touching.isEmpty else { continue }
            var bytes = try read(covered, from: source)
            PatchOverlay.apply(touching, to: &bytes, at: covered.offset)
            let crc = CRC32.checksum(bytes)
            patches.add(at: chunk.checksumOffset, TIFFByteOrder.bigEndian.bytes(of: crc))
        }
    }
}

/// The plans for one file and what the planner did, in words without coordinates.
public struct RedactionReport: Hashable, Sendable {
    public var plans: RedactionPlans
    public var notes: [String]
    /// Every place the file carries a location: what the plans act on, and what
    /// `has:location` tests.
    public var found: LocationSources
}
