/// Walks an MP4/MOV/3GP file's atoms for what photofs needs from a video: `mvhd`
/// creation time, `tkhd` dimensions, camera make/model, the location and the byte ranges
/// of every location-bearing payload, and XMP (`udta/XMP_` and the XMP `uuid` box).
///
/// Location atoms: `©xyz`, `loci`, `gps `, `gps0` anywhere under `moov` or a `trak`
/// (their `udta`), `©xyz` items of an iTunes-style `ilst`, and the value of the `mdta` key
/// `com.apple.quicktime.location.ISO6709`. For atoms the recorded range is the payload after
/// the atom header; for `ilst` values it is the value after the `data` atom's type and locale.
/// The samples of a GoPro GPMF track (`gpmd`) are listed from its sample table for the
/// planner to walk, and so is a `udta` `GPMF` atom; other timed-metadata tracks known to carry GPS samples (`camm`, `rtmd`)
/// mark the layout incomplete. `moov` may come before or after `mdat`. Atoms that claim more bytes than their parent are
/// a structural problem, except media data (`mdat`, `free`, `skip`, `wide`) running past the
/// end of a truncated file.
struct MovieWalker {
    static let maxDepth = 12
    static let xmpUUID: [UInt8] = [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC]
    static let locationKey = "com.apple.quicktime.location.ISO6709"
    /// The key whose value pairs a Live Photo's video with its still (see `LivePhotoIdentifier`).
    static let contentIdentifierKey = "com.apple.quicktime.content.identifier"
    static let locationAtoms: Set<UInt32> = [fourCCValue("\u{A9}xyz"), fourCCValue("loci"), fourCCValue("gps "), fourCCValue("gps0")]

    let reader: SourceReader
    let format: MediaFormat

    func layout() -> ContainerLayout {
        var layout = ContainerLayout(format: format)
        var movie = MovieInfo()
        let top = BMFFBoxList.boxes(reader: reader, from: 0, to: reader.size, context: "movie", layout: &layout)
        if let last = top.last, last.truncated {
            let harmless = [fourCCValue("mdat"), fourCCValue("free"), fourCCValue("skip"), fourCCValue("wide")].contains(last.type)
            layout.note("movie: atom '\(last.name)' runs past the end of the file", structural: !harmless)
        }
        var sawMovie = false
        for box in top {
            if box.type == fourCCValue("moov") {
                sawMovie = true
                walk(children: box, depth: 1, movie: &movie, layout: &layout)
            } else if box.type == fourCCValue("uuid") {
                xmpUUID(box, layout: &layout)
            } else if box.type == fourCCValue("meta") {
                meta(box, movie: &movie, layout: &layout)
            }
        }
        if !sawMovie {
            layout.note("movie: no moov atom", structural: true)
        }
        layout.movie = movie
        layout.pixelWidth = movie.width
        layout.pixelHeight = movie.height
        return layout
    }

    /// The children of a container atom.
    private func walk(children parent: BMFFBox, depth: Int, movie: inout MovieInfo, layout: inout ContainerLayout) {
        guard depth <= Self.maxDepth else {
            layout.note("movie: atoms nested too deep at \(parent.start)", structural: true)
            return
        }
        let children = BMFFBoxList.boxes(
            reader: reader, from: parent.payload.offset, to: parent.end, context: "movie '\(parent.name)'", layout: &layout)
        if let last = children.last, last.truncated {
            layout.note("movie: atom '\(last.name)' at \(last.start) runs past its parent '\(parent.name)'", structural: true)
        }
        let isUserData = parent.type == fourCCValue("udta")
        for box in children {
            if isUserData, box.type == fourCCValue("GPMF") {
                // GoPro's user-data GPMF (camera settings) is GPMF like the track's samples and
                // is walked with them: a GPS stream in it is location too.
                layout.gpmfSamples.append(box.payload)
            }
            if isUserData, !IdentityTags.movieUserDataKept.contains(box.name) {
                retagAsFree(box, layout: &layout)
                continue
            }
            switch fourCC(box.type) {
            case "trak", "udta":
                walk(children: box, depth: depth + 1, movie: &movie, layout: &layout)
            case "mdia", "minf":
                walk(children: box, depth: depth + 1, movie: &movie, layout: &layout)
            case "stbl":
                sampleTable(box, layout: &layout)
            case "meta":
                meta(box, movie: &movie, layout: &layout)
            case "mvhd":
                mvhd(box, movie: &movie)
            case "tkhd":
                tkhd(box, movie: &movie)
            case "XMP_":
                layout.xmpPackets.append(box.payload)
            case "uuid":
                xmpUUID(box, layout: &layout)
            case "\u{A9}mak" where movie.make == nil:
                movie.make = userDataText(box)
            case "\u{A9}mod" where movie.model == nil:
                movie.model = userDataText(box)
            default:
                guard Self.locationAtoms.contains(box.type) else { break }
                movie.locationPayloads.append(box.payload)
                if box.type == fourCCValue("\u{A9}xyz"), movie.location == nil, let text = userDataText(box) {
                    movie.location = ISO6709.parse(text)
                }
            }
        }
    }

    /// `stbl`: a track's sample table. `stsd` names the sample formats: GoPro `gpmd`
    /// samples are listed for the planner; Google `camm` and Sony `rtmd` carry GPS in the
    /// media data in forms photofs does not patch, so the layout is marked incomplete and
    /// redaction withholds the video.
    private func sampleTable(_ box: BMFFBox, layout: inout ContainerLayout) {
        let children = BMFFBoxList.boxes(reader: reader, from: box.payload.offset, to: box.end, context: "movie stbl", layout: &layout)
        if let last = children.last, last.truncated {
            layout.note("movie: atom '\(last.name)' at \(last.start) runs past its sample table", structural: true)
        }
        guard let stsd = children.first(where: { $0.type == fourCCValue("stsd") }) else { return }
        let entries = BMFFBoxList.boxes(reader: reader, from: stsd.payload.offset + 8, to: stsd.end, context: "movie stsd", layout: &layout)
        for entry in entries where [fourCCValue("camm"), fourCCValue("rtmd")].contains(entry.type) {
            layout.note("unpatchable: timed metadata track '\(entry.name)' may carry location in the media data", structural: true)
        }
        guard entries.contains(where: { $0.type == fourCCValue("gpmd") }) else { return }
        switch SampleTable.samples(in: children, reader: reader) {
        case .success(let samples):
            layout.gpmfSamples.append(contentsOf: samples)
        case .failure(let why):
            layout.note("movie: the gpmd track's sample table cannot be read (\(why))", structural: true)
        }
    }

    /// `mvhd`: creation time in seconds since 1904-01-01 UTC. Zero, and exactly the Unix epoch
    /// (writers that stored a Unix 0), mean "unknown", as exiftool reads them.
    private func mvhd(_ box: BMFFBox, movie: inout MovieInfo) {
        guard let v = reader.view(ByteRange(offset: box.payload.offset, length: min(box.payload.length, 12))), let version = v.u8(0) else {
            return
        }
        let seconds = version == 1 ? v.u64(4) : v.u32(4).map(UInt64.init)
        guard let seconds, seconds > 2_082_844_800, seconds < 1 << 40 else { return }
        movie.creationDate = CaptureDate(unixSeconds: Int64(seconds) - 2_082_844_800)
    }

    /// `tkhd`: width and height as 16.16 fixed point; the first track with a size wins.
    private func tkhd(_ box: BMFFBox, movie: inout MovieInfo) {
        guard movie.width == nil, let v = reader.view(ByteRange(offset: box.payload.offset, length: min(box.payload.length, 96))),
            let version = v.u8(0)
        else { return }
        let at = version == 1 ? 88 : 76
        guard let w = v.u32(at), let h = v.u32(at + 4), w >> 16 > 0, h >> 16 > 0 else { return }
        movie.width = Int(w >> 16)
        movie.height = Int(h >> 16)
    }

    /// A QuickTime user-data text atom: 16-bit length, 16-bit language, then the text.
    private func userDataText(_ box: BMFFBox) -> String? {
        guard let v = reader.view(ByteRange(offset: box.payload.offset, length: min(box.payload.length, 1024))), let length = v.u16(0)
        else { return nil }
        if let text = v.slice(4, min(Int(length), v.count - 4)), v.count >= 4 {
            return String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
        }
        return nil
    }

    /// A `uuid` atom carrying XMP (Adobe's UUID): the XML after the user type.
    /// Any other `uuid` atom (a maker's box) is freed by `--metadata private`.
    private func xmpUUID(_ box: BMFFBox, layout: inout ContainerLayout) {
        guard let user = reader.bytes(at: box.payload.offset - 16, count: 16), user == Self.xmpUUID else {
            retagAsFree(box, layout: &layout)
            return
        }
        layout.xmpPackets.append(box.payload)
    }

    /// Marks an atom for `--metadata private`: its type becomes `free` (which every reader
    /// skips) and everything after its header (a `uuid` atom's user type too) becomes zeros.
    private func retagAsFree(_ box: BMFFBox, layout: inout ContainerLayout) {
        let userType: Int64 = box.type == fourCCValue("uuid") ? 16 : 0
        layout.retaggedBlocks.append(
            RetaggedBlock(
                tag: ByteRange(offset: box.start + 4, length: 4),
                replacement: Array("free".utf8),
                data: ByteRange(offset: box.payload.offset - userType, length: box.payload.length + userType)))
    }

    /// Marks an `ilst` item for `--metadata private`. An item named by an `mdta` key gets
    /// key index 0 (which names no key, so readers skip it) and its `data` values zeroed;
    /// an iTunes-style item (named by its atom type) becomes `free`, zeroed whole.
    private func privateItem(_ item: BMFFBox, values: [BMFFBox], keyed: Bool, layout: inout ContainerLayout) {
        let dataAtoms = values.filter { $0.type == fourCCValue("data") && $0.payload.length >= 8 }
        guard keyed, !dataAtoms.isEmpty, dataAtoms.count == values.count else {
            retagAsFree(item, layout: &layout)
            return
        }
        let key = ByteRange(offset: item.start + 4, length: 4)
        for data in dataAtoms {
            layout.retaggedBlocks.append(
                RetaggedBlock(
                    tag: key, replacement: [0, 0, 0, 0], data: ByteRange(offset: data.payload.offset + 8, length: data.payload.length - 8)))
        }
    }

    /// A `meta` atom: a full box in MP4, a plain atom in QuickTime. With an `mdta` handler its
    /// `keys` name the `ilst` items; otherwise `ilst` items are named by their atom type.
    private func meta(_ box: BMFFBox, movie: inout MovieInfo, layout: inout ContainerLayout) {
        // QuickTime's meta has no version/flags: its first child's type sits at offset 4.
        let quickTime = reader.bytes(at: box.payload.offset + 4, count: 4).map { ByteView($0).u32(0) == fourCCValue("hdlr") } ?? false
        let start = quickTime ? box.payload.offset : box.payload.offset + 4
        let children = BMFFBoxList.boxes(reader: reader, from: start, to: box.end, context: "movie meta", layout: &layout)
        if let last = children.last, last.truncated {
            layout.note("movie: atom '\(last.name)' at \(last.start) runs past its meta", structural: true)
        }
        var keys: [String] = []
        var ilst: BMFFBox?
        for child in children where !IdentityTags.movieMetaKept.contains(child.name) {
            retagAsFree(child, layout: &layout)
        }
        for child in children {
            if child.type == fourCCValue("keys") {
                // Unreadable keys would hide which ilst item is the location: fail closed.
                guard let v = reader.view(child.payload), let count = v.u32(4), count <= 100_000 else {
                    layout.note("movie: unreadable keys atom at \(child.start)", structural: true)
                    continue
                }
                var p = 8
                for _ in 0..<count {
                    guard let size = v.u32(p), size >= 8, let name = v.slice(p + 8, Int(size) - 8) else {
                        layout.note("movie: keys atom at \(child.start) ends early", structural: true)
                        break
                    }
                    keys.append(name.text)
                    p += Int(size)
                }
            } else if child.type == fourCCValue("ilst") {
                ilst = child
            }
        }
        guard let ilst else { return }
        let items = BMFFBoxList.boxes(reader: reader, from: ilst.payload.offset, to: ilst.end, context: "movie ilst", layout: &layout)
        if let last = items.last, last.truncated {
            layout.note("movie: ilst item at \(last.start) runs past its list", structural: true)
        }
        for item in items {
            let name: String
            if keys.isEmpty {
                name = fourCC(item.type)
            } else {
                let index = Int(item.type)
                guard index >= 1, index <= keys.count else {
                    // An item naming no key: readers skip it, but its value goes under private.
                    privateItem(item, values: [], keyed: true, layout: &layout)
                    continue
                }
                name = keys[index - 1]
            }
            let isLocation = name == Self.locationKey || name == "\u{A9}xyz"
            let isMake = name == "com.apple.quicktime.make" || name == "\u{A9}mak"
            let isModel = name == "com.apple.quicktime.model" || name == "\u{A9}mod"
            let values = BMFFBoxList.boxes(
                reader: reader, from: item.payload.offset, to: item.end, context: "movie ilst item", layout: &layout)
            if name == Self.contentIdentifierKey, movie.contentIdentifier == nil,
                let data = values.first(where: { $0.type == fourCCValue("data") && $0.payload.length > 8 }),
                let value = reader.view(ByteRange(offset: data.payload.offset + 8, length: min(data.payload.length - 8, 256)))
            {
                movie.contentIdentifier = LivePhotoIdentifier.text(value.bytes)
            }
            if !IdentityTags.movieItemsKept.contains(name) {
                privateItem(item, values: values, keyed: !keys.isEmpty, layout: &layout)
                continue
            }
            guard isLocation || isMake || isModel else { continue }
            for data in values where data.type == fourCCValue("data") && data.payload.length >= 8 {
                let value = ByteRange(offset: data.payload.offset + 8, length: data.payload.length - 8)
                let text = reader.view(ByteRange(offset: value.offset, length: min(value.length, 1024))).map {
                    String(decoding: $0.bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                if isLocation {
                    movie.locationPayloads.append(value)
                    if movie.location == nil, let text { movie.location = ISO6709.parse(text) }
                } else if isMake, movie.make == nil {
                    movie.make = text
                } else if isModel, movie.model == nil {
                    movie.model = text
                }
            }
        }
    }
}
