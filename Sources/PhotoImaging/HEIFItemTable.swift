/// The parts of a HEIF file's `meta` box that decoding its primary picture without libheif's
/// colour conversion needs (see `HEIFCodec.withYCbCr`): item types (`iinf`), where each
/// item's bytes are (`iloc`, construction methods 0 and 1 only), references (`iref`) and
/// properties (`iprp`). Anything it does not understand makes it nil or leaves the item out:
/// the YCbCr path then decodes through libheif as before, while `HEIFCodec.decode` refuses
/// a file whose table is nil, since it cannot check the canvases libheif would allocate
/// (`HEIFItemTable+Canvas.swift`); an item described twice in `iinf` or `iloc` makes it nil.
struct HEIFItemTable {
    /// One property box of `ipco`: its four-character type and where its payload lies.
    struct Property {
        var type: String
        var payload: Range<Int>
    }

    let bytes: [UInt8]
    private(set) var primary: UInt32 = 0
    private(set) var types: [UInt32: String] = [:]
    private var extents: [UInt32: [Range<Int>]] = [:]
    /// Reference type → from item → to items, in file order.
    private var references: [String: [UInt32: [UInt32]]] = [:]
    private var propertyBoxes: [Property] = []
    private var associations: [UInt32: [Int]] = [:]

    init?(_ bytes: [UInt8]) {
        self.bytes = bytes
        // Top-level boxes are read up to the first that does not fit (libheif, too, ignores
        // bytes after the last box it needs), so that trailing bytes do not hide the table.
        guard let meta = Self.boxes(bytes, in: 0..<bytes.count, upToDamage: true)?.first(where: { $0.type == "meta" }),
            meta.payload.count >= 4,
            let children = Self.boxes(bytes, in: (meta.payload.lowerBound + 4)..<meta.payload.upperBound)
        else { return nil }
        var primary: UInt32?
        var idat: Range<Int>?
        var locations: [UInt32: (method: Int, extents: [Range<Int>])] = [:]
        for box in children {
            switch box.type {
            case "pitm":
                guard let version = u8(box.payload, 0) else { return nil }
                primary = version == 0 ? u16(box.payload, 4).map(UInt32.init) : u32(box.payload, 4)
            case "iinf": guard parseItemInfos(box.payload) else { return nil }
            case "iloc":
                guard let parsed = itemLocations(box.payload) else { return nil }
                locations = parsed
            case "iref": guard parseReferences(box.payload) else { return nil }
            case "idat": idat = box.payload
            case "iprp": guard parseProperties(box.payload) else { return nil }
            default: break
            }
        }
        guard let primary else { return nil }
        self.primary = primary
        for (id, location) in locations {
            switch location.method {
            case 0: extents[id] = location.extents
            case 1:
                guard let idat else { continue }
                extents[id] = location.extents.compactMap { range in
                    let start = idat.lowerBound + range.lowerBound
                    return range.upperBound <= idat.count ? start..<(start + range.count) : nil
                }
            default: continue
            }
        }
    }

    /// The item's bytes (its extents joined), or nil when it has no usable location.
    func data(of id: UInt32, limit: Int = 256 << 20) -> [UInt8]? {
        guard let ranges = extents[id], !ranges.isEmpty else { return nil }
        var out: [UInt8] = []
        for range in ranges {
            guard range.lowerBound >= 0, range.upperBound <= bytes.count, out.count + range.count <= limit else { return nil }
            out += bytes[range]
        }
        return out
    }

    /// The items `id` refers to with references of `type` (`dimg`, `auxl`, ...), in order.
    func references(_ type: String, from id: UInt32) -> [UInt32] { references[type]?[id] ?? [] }

    /// Whether any item refers to `id` with a reference of `type`.
    func isReferenced(_ id: UInt32, by type: String) -> Bool {
        references[type]?.values.contains(where: { $0.contains(id) }) ?? false
    }

    /// The properties associated with `id`, in association order (the order transforms apply).
    func properties(of id: UInt32) -> [Property] {
        (associations[id] ?? []).compactMap { index in index >= 1 && index <= propertyBoxes.count ? propertyBoxes[index - 1] : nil }
    }

    /// The image size in the item's `ispe` property.
    func spatialExtent(of id: UInt32) -> (width: Int, height: Int)? {
        guard let ispe = properties(of: id).first(where: { $0.type == "ispe" }), let w = u32(ispe.payload, 4), let h = u32(ispe.payload, 8)
        else { return nil }
        return (Int(w), Int(h))
    }

    // MARK: - Boxes

    /// The boxes laid out one after another in `range`; nil when one runs past its end, or
    /// with `upToDamage` those before it.
    static func boxes(_ bytes: [UInt8], in range: Range<Int>, upToDamage: Bool = false) -> [(type: String, payload: Range<Int>)]? {
        var out: [(type: String, payload: Range<Int>)] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            var header = 8
            if size == 1 {
                guard at + 16 <= range.upperBound else { return upToDamage ? out : nil }
                var large: UInt64 = 0
                for byte in bytes[(at + 8)..<(at + 16)] { large = large << 8 | UInt64(byte) }
                guard large <= UInt64(range.upperBound - at) else { return upToDamage ? out : nil }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { return upToDamage ? out : nil }
            out.append((type, (at + header)..<(at + size)))
            at += size
        }
        return out
    }

    func u8(_ range: Range<Int>, _ offset: Int) -> UInt8? {
        offset >= 0 && offset < range.count ? bytes[range.lowerBound + offset] : nil
    }

    func u16(_ range: Range<Int>, _ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= range.count else { return nil }
        let at = range.lowerBound + offset
        return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    func u32(_ range: Range<Int>, _ offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= range.count else { return nil }
        let at = range.lowerBound + offset
        return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// A big-endian unsigned field of 0, 4 or 8 bytes (`iloc`'s sizes).
    private func uint(_ range: Range<Int>, _ offset: Int, size: Int) -> Int? {
        switch size {
        case 0: return 0
        case 4: return u32(range, offset).map(Int.init)
        case 8:
            guard let high = u32(range, offset), let low = u32(range, offset + 4), high < 1 << 30 else { return nil }
            return Int(high) << 32 | Int(low)
        default: return nil
        }
    }

    // MARK: - meta children

    private mutating func parseItemInfos(_ payload: Range<Int>) -> Bool {
        guard let version = u8(payload, 0) else { return false }
        let start = payload.lowerBound + 4 + (version == 0 ? 2 : 4)
        guard start <= payload.upperBound, let entries = Self.boxes(bytes, in: start..<payload.upperBound) else { return false }
        for infe in entries where infe.type == "infe" {
            guard let v = u8(infe.payload, 0), v == 2 || v == 3 else { continue }
            let idSize = v == 2 ? 2 : 4
            guard let id = v == 2 ? u16(infe.payload, 4).map(UInt32.init) : u32(infe.payload, 4),
                infe.payload.count >= 4 + idSize + 6
            else { continue }
            let at = infe.payload.lowerBound + 4 + idSize + 2
            // An item described twice may be read either way by libheif: the file is refused.
            guard types[id] == nil else { return false }
            types[id] = String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
        }
        return true
    }

    private func itemLocations(_ p: Range<Int>) -> [UInt32: (method: Int, extents: [Range<Int>])]? {
        guard let version = u8(p, 0), version <= 2, let sizes = u16(p, 4) else { return nil }
        let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 0xF), baseSize = Int(sizes >> 4 & 0xF)
        let indexSize = version == 0 ? 0 : Int(sizes & 0xF)
        var at = 6
        guard let count = version < 2 ? u16(p, at).map(UInt32.init) : u32(p, at) else { return nil }
        at += version < 2 ? 2 : 4
        var result: [UInt32: (method: Int, extents: [Range<Int>])] = [:]
        // Fields of size 0 make extents that take no bytes: bound the work explicitly.
        var budget = 1_000_000
        var listed: Set<UInt32> = []
        for _ in 0..<count {
            guard let id = version < 2 ? u16(p, at).map(UInt32.init) : u32(p, at), listed.insert(id).inserted else { return nil }
            at += version < 2 ? 2 : 4
            var method = 0
            if version >= 1 {
                guard let m = u16(p, at) else { return nil }
                method = Int(m & 0xF)
                at += 2
            }
            at += 2  // data_reference_index
            guard let base = uint(p, at, size: baseSize), let extentCount = u16(p, at + baseSize) else { return nil }
            at += baseSize + 2
            var ranges: [Range<Int>] = []
            var usable = true
            for _ in 0..<extentCount {
                budget -= 1
                guard budget > 0 else { return nil }
                at += indexSize
                guard let offset = uint(p, at, size: offsetSize), let length = uint(p, at + offsetSize, size: lengthSize) else {
                    return nil
                }
                at += offsetSize + lengthSize
                let (start, overflow) = base.addingReportingOverflow(offset)
                // A length of 0 (the rest of the file) is left to libheif.
                guard !overflow, length > 0, start <= Int.max - length else {
                    usable = false
                    continue
                }
                ranges.append(start..<(start + length))
            }
            if usable { result[id] = (method, ranges) }
        }
        return result
    }

    private mutating func parseReferences(_ payload: Range<Int>) -> Bool {
        guard let version = u8(payload, 0), payload.count >= 4,
            let boxes = Self.boxes(bytes, in: (payload.lowerBound + 4)..<payload.upperBound)
        else { return false }
        let idSize = version == 0 ? 2 : 4
        func id(_ range: Range<Int>, _ offset: Int) -> UInt32? { idSize == 2 ? u16(range, offset).map(UInt32.init) : u32(range, offset) }
        for box in boxes {
            guard let from = id(box.payload, 0), let count = u16(box.payload, idSize) else { return false }
            var to: [UInt32] = []
            for index in 0..<Int(count) {
                guard let target = id(box.payload, idSize + 2 + index * idSize) else { return false }
                to.append(target)
            }
            references[box.type, default: [:]][from, default: []] += to
        }
        return true
    }

    private mutating func parseProperties(_ payload: Range<Int>) -> Bool {
        guard let children = Self.boxes(bytes, in: payload) else { return false }
        for child in children {
            if child.type == "ipco" {
                guard let boxes = Self.boxes(bytes, in: child.payload) else { return false }
                propertyBoxes = boxes.map { Property(type: $0.type, payload: $0.payload) }
            } else if child.type == "ipma" {
                guard parseAssociations(child.payload) else { return false }
            }
        }
        return true
    }

    private mutating func parseAssociations(_ p: Range<Int>) -> Bool {
        guard let version = u8(p, 0), let flags = u32(p, 0), let count = u32(p, 4) else { return false }
        let large = flags & 1 == 1
        var at = 8
        for _ in 0..<count {
            guard let id = version < 1 ? u16(p, at).map(UInt32.init) : u32(p, at) else { return false }
            at += version < 1 ? 2 : 4
            guard let n = u8(p, at) else { return false }
            at += 1
            for _ in 0..<n {
                if large {
                    guard let value = u16(p, at) else { return false }
                    associations[id, default: []].append(Int(value & 0x7FFF))
                    at += 2
                } else {
                    guard let value = u8(p, at) else { return false }
                    associations[id, default: []].append(Int(value & 0x7F))
                    at += 1
                }
            }
        }
        return true
    }
}
