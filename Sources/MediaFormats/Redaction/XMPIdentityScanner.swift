/// Finds what `--metadata private` blanks in an XMP packet: every property not listed in
/// `IdentityTags.xmpKept` (creator, rights, descriptions, titles, keywords, face regions,
/// document ids and history, serial numbers, any namespace photofs does not know), in
/// attribute and element form, plus comments and stray text between the RDF markup; and
/// the UTC offset at the end of a kept date, which is dropped by moving the value's end
/// left (the quote or end tag follows the shorter value, spaces fill the rest).
///
/// Works on the same terms as `XMPLocationScanner`: tolerant, never traps; spaces in place
/// of attributes, elements and text between elements keep the XML well-formed. What it
/// cannot follow (a property without its end tag) makes the whole packet blank
/// (`malformed`), or, in a piece of extended XMP, is blanked to the end of the piece.
struct XMPIdentityScanner: XMPByteScanning {
    /// Ranges (relative to the packet) to fill with spaces.
    var blanks: [Range<Int>] = []
    /// Replacements of the same length (relative to the packet): dates without their offset.
    var rewrites: [(range: Range<Int>, bytes: [UInt8])] = []

    /// True when a property has no end tag in a packet that holds its own closing
    /// `</x:xmpmeta>` or `</rdf:RDF>`: the caller replaces the whole packet.
    var malformed = false

    let text: [UInt8]
    /// Every namespace URI each prefix is bound to anywhere in the packet.
    private var bindings: [[UInt8]: Set<String>] = [:]

    private static let exifURI = "http://ns.adobe.com/exif/1.0/"

    /// Whether the packet holds its own closing markup (not a piece of extended XMP).
    private var claimsCompleteness: Bool {
        find(Array("</x:xmpmeta>".utf8), from: 0) != nil || find(Array("</rdf:RDF>".utf8), from: 0) != nil
    }

    init(_ text: [UInt8]) {
        self.text = text
        collectBindings()
        scan()
    }

    private mutating func collectBindings() {
        for (prefix, uri) in namespaceDeclarations() {
            bindings[prefix, default: []].insert(uri)
        }
    }

    private mutating func scan() {
        var index = 0
        while index < text.count {
            guard let lt = firstIndex(of: UInt8(ascii: "<"), from: index) else {
                blankText(index..<text.count)
                return
            }
            blankText(index..<lt)
            index = markup(at: lt)
        }
    }

    /// Text between markup at the RDF level: blanked when it holds more than whitespace.
    private mutating func blankText(_ range: Range<Int>) {
        guard !range.isEmpty, text[range].contains(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) else { return }
        blanks.append(range)
    }

    /// Handles the markup at `lt`; returns where scanning continues (past `lt`).
    private mutating func markup(at lt: Int) -> Int {
        if startsWith("<?", at: lt) { return endOf("?>", from: lt + 2) }
        if startsWith("<!--", at: lt) {
            let end = endOf("-->", from: lt + 4)
            blanks.append(lt..<end)
            return end
        }
        if startsWith("<![CDATA[", at: lt) {
            let end = endOf("]]>", from: lt + 9)
            blanks.append(lt..<end)
            return end
        }
        if startsWith("<!", at: lt) || startsWith("</", at: lt) { return endOf(">", from: lt + 2) }
        var cursor = lt + 1
        while cursor < text.count, isNameByte(text[cursor]) { cursor += 1 }
        let name = (lt + 1)..<cursor
        guard !name.isEmpty else { return lt + 1 }
        let (end, selfClosing) = attributes(from: cursor, structural: isStructural(name))
        if isStructural(name) { return end }
        // A property element: kept whole, or blanked through its end tag.
        let matched = selfClosing ? end : matchingEnd(of: name, from: end)
        // A property without its end tag in a packet that says it is complete: blanking
        // from here to the end would leave the enclosing elements unclosed, a new XML
        // error for readers, so the whole packet goes (`malformed`). A piece of extended
        // XMP is cut anywhere and is blanked to its end as before.
        if matched == nil, claimsCompleteness { malformed = true }
        let close = matched ?? text.count
        if isKept(name) {
            if !selfClosing, isDate(name), let valueEnd = firstIndex(of: UInt8(ascii: "<"), from: end), valueEnd > end {
                dropOffset(property: lt..<close, value: end..<valueEnd)
            }
        } else {
            blanks.append(lt..<close)
        }
        return close
    }

    /// Reads a start tag's attributes from `start`, blanking those private drops when the
    /// tag is not a property of its own (`structural`); returns the index after the tag.
    private mutating func attributes(from start: Int, structural: Bool) -> (end: Int, selfClosing: Bool) {
        var cursor = start
        while true {
            cursor = skipSpaces(cursor)
            guard cursor < text.count else { return (text.count, false) }
            if text[cursor] == UInt8(ascii: ">") { return (cursor + 1, false) }
            if startsWith("/>", at: cursor) { return (cursor + 2, true) }
            let nameStart = cursor
            while cursor < text.count, isNameByte(text[cursor]) { cursor += 1 }
            guard cursor > nameStart else {
                cursor += 1
                continue
            }
            let name = nameStart..<cursor
            cursor = skipSpaces(cursor)
            guard cursor < text.count, text[cursor] == UInt8(ascii: "=") else { continue }
            cursor = skipSpaces(cursor + 1)
            guard cursor < text.count, text[cursor] == UInt8(ascii: "\"") || text[cursor] == UInt8(ascii: "'") else { continue }
            let close = firstIndex(of: text[cursor], from: cursor + 1) ?? (text.count - 1)
            let property = nameStart..<(close + 1)
            if text[name].elementsEqual("rdf:about".utf8), close > cursor + 1 {
                // `rdf:about` may hold a document's unique id: emptied, spaces after it.
                let rewritten = Array("rdf:about=".utf8) + [text[cursor], text[cursor]]
                if rewritten.count <= property.count {
                    rewrites.append((property, rewritten + [UInt8](repeating: 0x20, count: property.count - rewritten.count)))
                }
            }
            if structural, !isStructural(name) {
                if !isKept(name) {
                    blanks.append(property)
                } else if isDate(name) {
                    dropOffset(property: property, value: (cursor + 1)..<max(cursor + 1, close))
                }
            }
            cursor = close + 1
        }
    }

    /// A rewrite of `property` without the `+hh:mm`/`-hh:mm` ending `value`, if it has one.
    private mutating func dropOffset(property: Range<Int>, value: Range<Int>) {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard value.count >= 16, let t = text[value].firstIndex(of: UInt8(ascii: "T")) else { return }
        let end = value.upperBound
        let tail = text[(end - 6)..<end]
        guard tail.first == UInt8(ascii: "+") || tail.first == UInt8(ascii: "-"), end - 6 > t,
            digits.contains(text[end - 5]), digits.contains(text[end - 4]), text[end - 3] == UInt8(ascii: ":"),
            digits.contains(text[end - 2]), digits.contains(text[end - 1])
        else { return }
        let rewritten = Array(text[property.lowerBound..<(end - 6)]) + Array(text[end..<property.upperBound])
        rewrites.append((property, rewritten + [UInt8](repeating: 0x20, count: 6)))
    }

    // MARK: - Names

    private func split(_ qualified: Range<Int>) -> (prefix: [UInt8], local: String)? {
        guard let colon = text[qualified].firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return (Array(text[qualified.lowerBound..<colon]), String(decoding: text[(colon + 1)..<qualified.upperBound], as: UTF8.self))
    }

    private func isStructural(_ qualified: Range<Int>) -> Bool {
        let bytes = Array(text[qualified])
        if bytes == Array("xmlns".utf8) { return true }
        guard let (prefix, _) = split(qualified) else { return false }
        return XMPStructure.prefixes.contains(prefix)
    }

    /// Kept when every URI the prefix is bound to keeps the local name (exif:GPS* are
    /// location, left to the location policy).
    private func isKept(_ qualified: Range<Int>) -> Bool {
        guard let (prefix, local) = split(qualified), let uris = bindings[prefix], !uris.isEmpty else { return false }
        return uris.allSatisfy { uri in
            (uri == Self.exifURI && local.hasPrefix("GPS")) || IdentityTags.xmpKept[uri]?.contains(local) == true
        }
    }

    private func isDate(_ qualified: Range<Int>) -> Bool {
        guard let (_, local) = split(qualified) else { return false }
        return IdentityTags.xmpDates.contains(local)
    }

}
