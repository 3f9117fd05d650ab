/// The byte-level helpers the XMP scanners share: they walk an XMP packet as raw bytes
/// (no XML parser, so a malformed packet cannot make them allocate without bound) and
/// need the same few primitives to find names, spaces and terminators.
/// XMP's own structure, shared by the scanners.
enum XMPStructure {
    /// The namespace prefixes of declarations, RDF and the packet wrapper: never a
    /// property of their own.
    static let prefixes: Set<[UInt8]> = Set(["xmlns", "xml", "rdf", "x"].map { Array($0.utf8) })
}

protocol XMPByteScanning {
    /// The XMP packet being scanned.
    var text: [UInt8] { get }
}

extension XMPByteScanning {
    /// Whether `byte` may be part of an XML name (ASCII letters, digits, `:_-.`, or any
    /// byte of a multi-byte UTF-8 character).
    func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x80...0xFF:
            true
        default:
            false
        }
    }

    /// Every `xmlns:prefix="uri"` declaration anywhere in the packet, in order, with a
    /// prefix declared more than once listed each time.
    func namespaceDeclarations() -> [(prefix: [UInt8], uri: String)] {
        let marker = Array("xmlns:".utf8)
        var declarations: [(prefix: [UInt8], uri: String)] = []
        var index = 0
        while let found = find(marker, from: index) {
            index = found + marker.count
            var end = index
            while end < text.count, isNameByte(text[end]) { end += 1 }
            var cursor = skipSpaces(end)
            guard cursor < text.count, text[cursor] == UInt8(ascii: "=") else { continue }
            cursor = skipSpaces(cursor + 1)
            guard cursor < text.count, text[cursor] == UInt8(ascii: "\"") || text[cursor] == UInt8(ascii: "'") else { continue }
            guard let close = firstIndex(of: text[cursor], from: cursor + 1) else { continue }
            declarations.append((Array(text[index..<end]), String(decoding: text[(cursor + 1)..<close], as: UTF8.self)))
            index = close + 1
        }
        return declarations
    }

    /// The first index at or after `index` that is not XML white space.
    func skipSpaces(_ index: Int) -> Int {
        var index = index
        while index < text.count, [0x20, 0x09, 0x0A, 0x0D].contains(text[index]) { index += 1 }
        return index
    }

    func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        guard start < text.count else { return nil }
        return text[start...].firstIndex(of: byte)
    }

    func startsWith(_ prefix: String, at index: Int) -> Bool {
        let bytes = Array(prefix.utf8)
        guard index >= 0, index <= text.count - bytes.count else { return false }
        return text[index..<(index + bytes.count)].elementsEqual(bytes)
    }

    /// The index just past the first `terminator` at or after `start`, or the end of text.
    func endOf(_ terminator: String, from start: Int) -> Int {
        guard let found = find(Array(terminator.utf8), from: start) else { return text.count }
        return found + terminator.utf8.count
    }

    /// The first index of `needle` at or after `start`.
    func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0 else { return nil }
        var index = start
        while index <= text.count - needle.count {
            guard let first = firstIndex(of: needle[0], from: index) else { return nil }
            if first > text.count - needle.count { return nil }
            if text[first..<(first + needle.count)].elementsEqual(needle) { return first }
            index = first + 1
        }
        return nil
    }

    /// The index just past the end tag matching a start tag named `name`.
    func matchingEnd(of name: Range<Int>, from start: Int) -> Int? {
        var depth = 1
        var index = start
        let nameBytes = text[name]
        while let lt = firstIndex(of: UInt8(ascii: "<"), from: index) {
            let closing = startsWith("</", at: lt)
            let nameStart = closing ? lt + 2 : lt + 1
            var cursor = nameStart
            while cursor < text.count, isNameByte(text[cursor]) { cursor += 1 }
            guard let gt = firstIndex(of: UInt8(ascii: ">"), from: cursor) else { return nil }
            if text[nameStart..<cursor].elementsEqual(nameBytes) {
                if closing {
                    depth -= 1
                    if depth == 0 { return gt + 1 }
                } else if text[gt - 1] != UInt8(ascii: "/") {
                    depth += 1
                }
            }
            index = max(gt, lt + 1)
        }
        return nil
    }
}
