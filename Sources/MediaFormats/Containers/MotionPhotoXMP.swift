/// What a Google motion photo's XMP says about the files appended after its primary image:
/// the `Container:Directory` items (`Item:Mime`, `Item:Semantic`, `Item:Length`,
/// `Item:Padding`, in file order, the primary image first) and the older
/// `GCamera:MicroVideoOffset` (the video's distance from the end of the file).
///
/// A tolerant scan of the packet bytes, not an XML parser: items are the `rdf:li` elements
/// after the directory that name a `Mime` or `Semantic`, in attribute or element form.
struct MotionPhotoXMP {
    struct Item {
        var mime: String?
        var semantic: String?
        var length: Int64?
        var padding: Int64
    }

    var items: [Item] = []
    var microVideoOffset: Int64?

    /// Whether the packets declare anything appended.
    var declaresTrailer: Bool { items.count > 1 || microVideoOffset != nil }

    init(packets: [[UInt8]]) {
        for text in packets {
            if microVideoOffset == nil, let value = Self.value(of: "MicroVideoOffset", in: text[...]), let offset = Int64(value) {
                microVideoOffset = offset
            }
            guard let directory = Self.find(Array("Directory".utf8), in: text[...]) else { continue }
            let marker = Array("<rdf:li".utf8)
            var starts: [Int] = []
            var from = directory
            while let found = Self.find(marker, in: text[from...]) {
                starts.append(found)
                from = found + marker.count
            }
            for (index, start) in starts.enumerated() {
                let li = text[start..<(index + 1 < starts.count ? starts[index + 1] : text.count)]
                let mime = Self.value(of: "Mime", in: li)
                let semantic = Self.value(of: "Semantic", in: li)
                guard mime != nil || semantic != nil else { continue }
                items.append(
                    Item(
                        mime: mime, semantic: semantic, length: Self.value(of: "Length", in: li).flatMap { Int64($0) },
                        padding: Self.value(of: "Padding", in: li).flatMap { Int64($0) } ?? 0))
            }
        }
    }

    /// Where `needle` first occurs in `text` (an index of the whole array), if it does.
    static func find(_ needle: [UInt8], in text: ArraySlice<UInt8>) -> Int? {
        guard text.count >= needle.count, let first = needle.first else { return nil }
        var index = text.startIndex
        while index <= text.endIndex - needle.count {
            if text[index] == first, text[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The value of the first property whose local name is `local` (any prefix): the text
    /// of `prefix:local="v"` or `<prefix:local>v<`, without surrounding spaces.
    static func value(of local: String, in text: ArraySlice<UInt8>) -> String? {
        let name = Array((":" + local).utf8)
        var search = text.startIndex
        while let found = find(name, in: text[search...]) {
            search = found + name.count
            var cursor = search
            while cursor < text.endIndex, text[cursor] == 0x20 { cursor += 1 }
            guard cursor < text.endIndex else { return nil }
            var start: Int
            let terminator: UInt8
            if text[cursor] == UInt8(ascii: "=") {
                cursor += 1
                while cursor < text.endIndex, text[cursor] == 0x20 { cursor += 1 }
                guard cursor < text.endIndex, text[cursor] == UInt8(ascii: "\"") || text[cursor] == UInt8(ascii: "'") else { continue }
                terminator = text[cursor]
                start = cursor + 1
            } else if text[cursor] == UInt8(ascii: ">") {
                terminator = UInt8(ascii: "<")
                start = cursor + 1
            } else {
                continue
            }
            guard let end = text[start...].firstIndex(of: terminator) else { return nil }
            var stop = end
            while start < stop, [0x20, 0x09, 0x0A, 0x0D].contains(text[start]) { start += 1 }
            while stop > start, [0x20, 0x09, 0x0A, 0x0D].contains(text[stop - 1]) { stop -= 1 }
            return String(decoding: text[start..<stop], as: UTF8.self)
        }
        return nil
    }
}
