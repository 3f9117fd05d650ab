/// Walks a HEIF-family file (HEIC, HEIF, AVIF): the top-level `meta` box with its item
/// information (`iinf`/`infe`), locations (`iloc`), primary item (`pitm`) and properties
/// (`iprp`: `ipco`/`ispe`, `ipma`).
///
/// - `Exif` items: the payload starts with a 4-byte big-endian offset to the TIFF header
///   (counted from after those 4 bytes); the range runs from the header to the extent end.
/// - XMP: `mime` items whose content type is `application/rdf+xml`.
/// - Construction method 0 (file offsets) and 1 (`idat`) are resolved; method 2 (item
///   references) is a structural problem for Exif/XMP items.
/// - An item stored in several extents is read as their concatenation. When the TIFF data
///   (or an XMP packet) spans several extents it gets one range per extent (the first Exif
///   range starts at the TIFF header, the others are whole extents) and a structural problem:
///   offsets inside the TIFF cannot be followed across extents, so redaction must fail closed.
struct HEIFWalker {
    struct ItemInfo {
        var type: String
        var contentType: String?
    }

    struct Location {
        var method: Int
        var extents: [ByteRange]
    }

    let reader: SourceReader
    let format: MediaFormat

    func layout() -> ContainerLayout {
        var layout = ContainerLayout(format: format)
        let top = BMFFBoxList.boxes(reader: reader, from: 0, to: reader.size, context: "HEIF", layout: &layout)
        if let last = top.last, last.truncated {
            // Only media data may run past the end of a truncated file without hiding metadata.
            layout.note("HEIF: box '\(last.name)' runs past the end of the file", structural: last.type != fourCCValue("mdat"))
        }
        guard let meta = top.first(where: { $0.type == fourCCValue("meta") }) else {
            layout.note("HEIF: no meta box", structural: true)
            return layout
        }
        walkMeta(meta, layout: &layout)
        return layout
    }

    private func walkMeta(_ meta: BMFFBox, layout: inout ContainerLayout) {
        // `meta` is a full box: 4 bytes of version and flags before its children.
        let children = BMFFBoxList.boxes(reader: reader, from: meta.payload.offset + 4, to: meta.end, context: "HEIF meta", layout: &layout)
        if let last = children.last, last.truncated {
            layout.note("HEIF: box '\(last.name)' runs past the end of meta", structural: true)
        }
        var items: [UInt32: ItemInfo] = [:]
        var locations: [UInt32: Location] = [:]
        var primary: UInt32?
        var idat: ByteRange?
        var properties: [BMFFBox] = []
        var associations: [UInt32: [Int]] = [:]
        for box in children {
            switch fourCC(box.type) {
            case "pitm":
                if let v = reader.view(ByteRange(offset: box.payload.offset, length: min(box.payload.length, 8))), let version = v.u8(0) {
                    primary = version == 0 ? v.u16(4).map(UInt32.init) : v.u32(4)
                }
            case "iinf": items = itemInfos(box, layout: &layout)
            case "iloc": locations = itemLocations(box, layout: &layout)
            case "idat": idat = box.payload
            case "iprp":
                let iprp = BMFFBoxList.boxes(reader: reader, from: box.payload.offset, to: box.end, context: "HEIF iprp", layout: &layout)
                for child in iprp {
                    if child.type == fourCCValue("ipco") {
                        properties = BMFFBoxList.boxes(
                            reader: reader, from: child.payload.offset, to: child.end, context: "HEIF ipco", layout: &layout)
                    } else if child.type == fourCCValue("ipma") {
                        associations.merge(propertyAssociations(child), uniquingKeysWith: { $0 + $1 })
                    }
                }
            default:
                break
            }
        }

        for (id, info) in items.sorted(by: { $0.key < $1.key }) {
            let isExif = info.type == "Exif"
            let isXMP =
                (info.type == "mime" || info.type.isEmpty) && info.contentType?.lowercased().hasPrefix("application/rdf+xml") == true
            guard isExif || isXMP else { continue }
            let kind = isExif ? "Exif" : "XMP"
            guard let location = locations[id] else {
                layout.note("HEIF: \(kind) item \(id) has no location", structural: true)
                continue
            }
            var extents = location.extents
            switch location.method {
            case 0:
                break
            case 1:
                guard let idat else {
                    layout.note("HEIF: \(kind) item \(id) refers to a missing idat", structural: true)
                    continue
                }
                extents = extents.map { ByteRange(offset: idat.offset &+ $0.offset, length: $0.length) }
            default:
                layout.note("HEIF: \(kind) item \(id) uses construction method \(location.method)", structural: true)
                continue
            }
            guard !extents.isEmpty else {
                layout.note("HEIF: \(kind) item \(id) has no extents", structural: true)
                continue
            }
            if extents.contains(where: { $0.offset < 0 || $0.length < 0 || $0.offset > reader.size || $0.length > reader.size - $0.offset })
            {
                layout.note("HEIF: \(kind) item \(id) lies outside the file", structural: true)
                continue
            }
            if isExif {
                addExif(extents, id: id, layout: &layout)
            } else {
                if extents.count > 1 {
                    layout.note("HEIF: XMP item \(id) is split over \(extents.count) extents", structural: true)
                }
                layout.xmpPackets += extents
            }
        }

        if let primary, let indices = associations[primary] {
            for index in indices where index >= 1 && index <= properties.count {
                let property = properties[index - 1]
                guard property.type == fourCCValue("ispe"),
                    let v = reader.view(ByteRange(offset: property.payload.offset, length: min(property.payload.length, 12))),
                    let w = v.u32(4), let h = v.u32(8)
                else { continue }
                layout.pixelWidth = Int(w)
                layout.pixelHeight = Int(h)
                break
            }
        }
    }

    /// The Exif item: skip the 4-byte offset field and the offset it names to reach the TIFF
    /// header. Offsets count through the item's extents in order, as if they were concatenated.
    private func addExif(_ extents: [ByteRange], id: UInt32, layout: inout ContainerLayout) {
        let first = extents[0]
        guard first.length >= 4, let field = reader.bytes(at: first.offset, count: 4), let skip = ByteView(field).u32(0) else {
            layout.note("HEIF: Exif item \(id) is too short", structural: true)
            return
        }
        var logical = 4 + Int64(skip)
        var blocks: [ByteRange] = []
        for extent in extents {
            if logical >= extent.length {
                logical -= extent.length
                continue
            }
            blocks.append(ByteRange(offset: extent.offset + logical, length: extent.length - logical))
            logical = 0
        }
        if let start = blocks.first?.offset, let head = reader.bytes(at: start, count: 4), TIFFWalker.isHeader(head[...]) {
            if blocks.count > 1 {
                layout.note("HEIF: Exif item \(id) TIFF data is split over \(blocks.count) extents", structural: true)
            }
            layout.exifBlocks += blocks
            return
        }
        // Some writers get the offset wrong; look for the header near the start.
        let window = reader.prefix(at: first.offset + 4, count: Int(min(first.length - 4, 64)))
        if let found = (0..<max(0, window.count - 3)).first(where: { TIFFWalker.isHeader(window[$0...]) }) {
            let start = first.offset + 4 + Int64(found)
            layout.note("HEIF: Exif item \(id) header offset \(skip) is wrong; TIFF header found at \(start)", structural: false)
            layout.exifBlocks.append(ByteRange(offset: start, length: first.end - start))
        } else {
            layout.note("HEIF: Exif item \(id) has no TIFF header", structural: false)
            layout.exifBlocks.append(ByteRange(offset: first.offset + 4, length: first.length - 4))
        }
        if extents.count > 1 {
            layout.note("HEIF: Exif item \(id) is split over \(extents.count) extents", structural: true)
            layout.exifBlocks += extents.dropFirst()
        }
    }

    /// `iinf`: item id → type (and content type for `mime` items).
    private func itemInfos(_ iinf: BMFFBox, layout: inout ContainerLayout) -> [UInt32: ItemInfo] {
        guard let head = reader.bytes(at: iinf.payload.offset, count: 4) else { return [:] }
        let countSize: Int64 = head[0] == 0 ? 2 : 4
        let entries = BMFFBoxList.boxes(
            reader: reader, from: iinf.payload.offset + 4 + countSize, to: iinf.end, context: "HEIF iinf", layout: &layout)
        var result: [UInt32: ItemInfo] = [:]
        for infe in entries where infe.type == fourCCValue("infe") {
            guard let v = reader.view(ByteRange(offset: infe.payload.offset, length: min(infe.payload.length, 4096))), let version = v.u8(0)
            else { continue }
            switch version {
            case 0, 1:
                guard let id = v.u16(4), let (_, afterName) = v.cString(8) else { continue }
                let content = v.cString(afterName)?.bytes.text
                result[UInt32(id)] = ItemInfo(type: "", contentType: content)
            case 2, 3:
                let idSize = version == 2 ? 2 : 4
                guard let id = version == 2 ? v.u16(4).map(UInt32.init) : v.u32(4), let type = v.u32(4 + idSize + 2) else { continue }
                var info = ItemInfo(type: fourCC(type))
                if info.type == "mime", let (_, afterName) = v.cString(4 + idSize + 6) {
                    info.contentType = v.cString(afterName)?.bytes.text
                }
                result[id] = info
            default:
                layout.note("HEIF: infe version \(version)", structural: false)
            }
        }
        return result
    }

    /// `iloc` versions 0-2: item id → construction method and extents (absolute for method 0).
    private func itemLocations(_ iloc: BMFFBox, layout: inout ContainerLayout) -> [UInt32: Location] {
        guard let v = reader.view(iloc.payload), let version = v.u8(0), version <= 2, let sizes = v.u16(4) else {
            layout.note("HEIF: unreadable iloc", structural: true)
            return [:]
        }
        let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 0xF), baseSize = Int(sizes >> 4 & 0xF)
        let indexSize = version == 0 ? 0 : Int(sizes & 0xF)
        var p = 6
        guard let count = version < 2 ? v.u16(p).map(UInt32.init) : v.u32(p) else { return [:] }
        p += version < 2 ? 2 : 4
        var result: [UInt32: Location] = [:]
        // Zero-sized fields make extents that take no bytes: bound the work explicitly.
        var budget = 1_000_000
        for _ in 0..<count {
            guard let id = version < 2 ? v.u16(p).map(UInt32.init) : v.u32(p) else { break }
            p += version < 2 ? 2 : 4
            var method = 0
            if version >= 1 {
                guard let m = v.u16(p) else { break }
                method = Int(m & 0xF)
                p += 2
            }
            p += 2  // data_reference_index
            guard let base = v.uint(p, size: baseSize) else { break }
            p += baseSize
            guard let extentCount = v.u16(p) else { break }
            p += 2
            var extents: [ByteRange] = []
            var ok = true
            for _ in 0..<extentCount {
                budget -= 1
                guard budget > 0 else {
                    layout.note("HEIF: iloc has too many extents", structural: true)
                    return result
                }
                p += indexSize
                guard let offset = v.uint(p, size: offsetSize), let length = v.uint(p + offsetSize, size: lengthSize) else {
                    ok = false
                    break
                }
                p += offsetSize + lengthSize
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow, start <= UInt64(Int64.max), length <= UInt64(Int64.max) else {
                    extents.append(ByteRange(offset: -1, length: 0))
                    continue
                }
                // Length 0 means "to the end of the file" (method 0).
                let len = length == 0 && method == 0 ? max(0, reader.size - Int64(start)) : Int64(length)
                extents.append(ByteRange(offset: Int64(start), length: len))
            }
            guard ok else { break }
            result[id] = Location(method: method, extents: extents)
        }
        if p > v.count {
            layout.note("HEIF: iloc is truncated", structural: true)
        }
        return result
    }

    /// `ipma`: item id → 1-based property indices.
    private func propertyAssociations(_ ipma: BMFFBox) -> [UInt32: [Int]] {
        guard let v = reader.view(ipma.payload), let version = v.u8(0), let flags = v.u32(0), let count = v.u32(4) else { return [:] }
        let large = flags & 1 == 1
        var p = 8
        var result: [UInt32: [Int]] = [:]
        for _ in 0..<count {
            guard let id = version < 1 ? v.u16(p).map(UInt32.init) : v.u32(p) else { break }
            p += version < 1 ? 2 : 4
            guard let n = v.u8(p) else { break }
            p += 1
            var indices: [Int] = []
            for _ in 0..<n {
                if large {
                    guard let value = v.u16(p) else { break }
                    indices.append(Int(value & 0x7FFF))
                    p += 2
                } else {
                    guard let value = v.u8(p) else { break }
                    indices.append(Int(value & 0x7F))
                    p += 1
                }
            }
            result[id, default: []] += indices
        }
        return result
    }
}
