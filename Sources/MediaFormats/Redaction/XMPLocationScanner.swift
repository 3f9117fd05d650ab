/// Finds the location properties in an XMP packet so they can be blanked with spaces:
/// `exif:GPS*`; place names in any namespace (local names `City`, `State`, `Country`,
/// `CountryCode`, `CountryName`, `Location`, `Sublocation`, `ProvinceState`, `WorldRegion`,
/// `LocationCreated`, `LocationShown`, as `photoshop:`, `Iptc4xmpCore:`, `Iptc4xmpExt:` and
/// `photomech:` write them); every property of DJI's `drone-dji:` namespace (drone
/// telemetry: position, altitudes, headings); in attribute form (`exif:GPSLatitude="..."`,
/// the attribute from its name to its closing quote) and element form
/// (`<exif:GPSLatitude>...</exif:GPSLatitude>`, from `<` to the end tag's `>`).
/// A creator's or licensor's contact address (`Iptc4xmpCore:CreatorContactInfo`'s
/// `CiAdrCity`, `plus:LicensorCity`) is not where the photo was taken and is not location.
///
/// Spaces in place of an attribute or an element keep the XML well-formed (whitespace is
/// allowed between attributes and between property elements). Prefixes are resolved
/// through the packet's `xmlns:` declarations, and the conventional prefixes always count.
///
/// A tolerant scanner, not an XML parser: it must not trap or stall on any bytes. After
/// blanking it looks again for the names of coordinate properties; when one remains (an
/// unusual spelling it did not understand, a packet cut in the middle of a property), or
/// when a location element has no end tag (a malformed packet), the caller blanks the
/// whole packet (fail closed).
struct XMPLocationScanner: XMPByteScanning {
    /// Ranges (relative to the packet) to fill with spaces: one per location property.
    var blanks: [Range<Int>] = []
    /// The `exif:GPSLatitude` / `exif:GPSLongitude` properties with simple text values, for
    /// `coarse` to rewrite rounded instead of blanking: the whole property's range and its
    /// value's range (both relative to the packet).
    var coordinates: [(property: Range<Int>, value: Range<Int>)] = []
    /// True when a coordinate name remains outside the blanks: blank the whole packet.
    var uncertain = false
    /// True when a blanked property says where (anything but `exif:GPSVersionID` and DJI
    /// flight data that is not a position, altitude or heading), or `uncertain` is set.
    var foundLocation = false

    let text: [UInt8]
    private var locationPrefixes: [[UInt8]: LocationNamespace] = [:]

    /// Which namespace a prefix is bound to, and so which local names are location.
    private enum LocationNamespace {
        case exif, photoshop, iptcCore, iptcExt, dji

        func isLocation(_ local: ArraySlice<UInt8>) -> Bool {
            let name = String(decoding: local, as: UTF8.self)
            switch self {
            case .exif: return name.hasPrefix("GPS")
            case .photoshop, .iptcCore, .iptcExt: return XMPLocationScanner.placeNames.contains(name)
            case .dji: return true
            }
        }

        /// Whether a location property of this namespace places the photo (GPSVersionID
        /// and DJI's camera settings do not; they are blanked all the same).
        func says(_ local: ArraySlice<UInt8>) -> Bool {
            let name = String(decoding: local, as: UTF8.self)
            switch self {
            case .exif: return name != "GPSVersionID"
            case .dji: return ["Gps", "GPS", "Latitude", "Longitude", "Longtitude", "Altitude", "Yaw"].contains { name.contains($0) }
            default: return true
            }
        }
    }

    /// Local names that are a place in any namespace.
    private static let placeNames: Set<String> = [
        "City", "State", "Country", "CountryCode", "CountryName", "Location", "Sublocation", "SubLocation", "ProvinceState",
        "WorldRegion", "LocationCreated", "LocationShown",
    ]
    /// Prefixes of the XML and RDF machinery, never location.

    private static let namespaces: [(uri: String, prefix: String, kind: LocationNamespace)] = [
        ("http://ns.adobe.com/exif/1.0/", "exif", .exif),
        ("http://ns.adobe.com/photoshop/1.0/", "photoshop", .photoshop),
        ("http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/", "Iptc4xmpCore", .iptcCore),
        ("http://iptc.org/std/Iptc4xmpExt/2008-02-29/", "Iptc4xmpExt", .iptcExt),
        ("http://www.dji.com/drone-dji/1.0/", "drone-dji", .dji),
    ]

    /// Names that must not survive outside the blanks.
    private static let residue: [[UInt8]] = [
        "GPSLatitude", "GPSLongitude", "GPSAltitude", "GPSDestLat", "GPSDestLon", "GpsLatitude", "GpsLongitude", "GpsLongtitude",
        "LocationShown", "LocationCreated",
    ].map { Array($0.utf8) }

    /// Scans `text` (the packet's bytes).
    init(_ text: [UInt8]) {
        self.text = text
        for namespace in Self.namespaces {
            locationPrefixes[Array(namespace.prefix.utf8)] = namespace.kind
        }
        collectDeclarations()
        scan()
        checkResidue()
        if uncertain { foundLocation = true }
    }

    // MARK: - Namespace declarations

    /// Binds every prefix declared anywhere in the packet with `xmlns:p="uri"` to a
    /// location namespace (a prefix rebound elsewhere still counts: fail closed).
    private mutating func collectDeclarations() {
        for (prefix, uri) in namespaceDeclarations() {
            if let namespace = Self.namespaces.first(where: { $0.uri == uri }) {
                locationPrefixes[prefix] = namespace.kind
            }
        }
    }

    // MARK: - Tags

    private mutating func scan() {
        var index = 0
        while index < text.count {
            guard let lt = firstIndex(of: UInt8(ascii: "<"), from: index) else { return }
            index = skipMarkup(at: lt)
        }
    }

    /// Handles the markup starting at `lt` and returns where scanning continues (always
    /// past `lt`).
    private mutating func skipMarkup(at lt: Int) -> Int {
        if startsWith("<!--", at: lt) { return endOf("-->", from: lt + 4) }
        if startsWith("<![CDATA[", at: lt) { return endOf("]]>", from: lt + 9) }
        if startsWith("<?", at: lt) { return endOf("?>", from: lt + 2) }
        if startsWith("<!", at: lt) || startsWith("</", at: lt) { return endOf(">", from: lt + 2) }
        guard let tag = readStartTag(at: lt) else { return lt + 1 }
        blanks.append(contentsOf: tag.locationAttributes.map(\.property))
        if tag.locationAttributes.contains(where: { saysLocation($0.name) }) { foundLocation = true }
        coordinates.append(contentsOf: tag.locationAttributes.filter { isCoordinate($0.name) }.map { ($0.property, $0.value) })
        guard isLocation(tag.name) else { return tag.end }
        if saysLocation(tag.name) { foundLocation = true }
        if tag.selfClosing {
            blanks.append(lt..<tag.end)
            return tag.end
        }
        // Element form: blank through the matching end tag (same-name nesting counted).
        // Without one the packet is malformed: blanking from here to its end would leave
        // the elements that enclose this one unclosed (a new XML error for every reader),
        // so the whole packet goes instead.
        guard let end = matchingEnd(of: tag.name, from: tag.end) else {
            uncertain = true
            return text.count
        }
        blanks.append(lt..<end)
        // A simple value: text up to the element's own end tag, written `</name>`.
        if isCoordinate(tag.name), let valueEnd = firstIndex(of: UInt8(ascii: "<"), from: tag.end),
            valueEnd + 3 + tag.name.count == end, startsWith("</", at: valueEnd)
        {
            coordinates.append((lt..<end, tag.end..<valueEnd))
        }
        return end
    }

    private struct StartTag {
        var name: Range<Int>
        var end: Int
        var selfClosing: Bool
        var locationAttributes: [(property: Range<Int>, name: Range<Int>, value: Range<Int>)]
    }

    /// Reads `<name attr="v" ...>` or `<name .../>`; nil when it is not a start tag.
    private func readStartTag(at lt: Int) -> StartTag? {
        var cursor = lt + 1
        let nameStart = cursor
        while cursor < text.count, isNameByte(text[cursor]) { cursor += 1 }
        guard cursor > nameStart else { return nil }
        var tag = StartTag(name: nameStart..<cursor, end: text.count, selfClosing: false, locationAttributes: [])
        while true {
            cursor = skipSpaces(cursor)
            guard cursor < text.count else {
                tag.end = text.count
                return tag
            }
            if text[cursor] == UInt8(ascii: ">") {
                tag.end = cursor + 1
                return tag
            }
            if startsWith("/>", at: cursor) {
                tag.end = cursor + 2
                tag.selfClosing = true
                return tag
            }
            let attrStart = cursor
            while cursor < text.count, isNameByte(text[cursor]) { cursor += 1 }
            let attrName = attrStart..<cursor
            guard cursor > attrStart else {
                // Not a name: skip the byte and carry on (tolerant).
                cursor += 1
                continue
            }
            cursor = skipSpaces(cursor)
            guard cursor < text.count, text[cursor] == UInt8(ascii: "=") else { continue }
            cursor = skipSpaces(cursor + 1)
            guard cursor < text.count, text[cursor] == UInt8(ascii: "\"") || text[cursor] == UInt8(ascii: "'") else { continue }
            let quote = text[cursor]
            let close = firstIndex(of: quote, from: cursor + 1) ?? (text.count - 1)
            if isLocation(attrName) {
                tag.locationAttributes.append((attrStart..<(close + 1), attrName, (cursor + 1)..<max(cursor + 1, close)))
            }
            cursor = close + 1
        }
    }

    // MARK: - Checks

    private mutating func checkResidue() {
        var covered = [Bool](repeating: false, count: text.count)
        for blank in blanks {
            for index in blank where index >= 0 && index < covered.count { covered[index] = true }
        }
        for needle in Self.residue {
            var from = 0
            while let found = find(needle, from: from) {
                if !covered[found] {
                    uncertain = true
                    return
                }
                from = found + 1
            }
        }
    }

    // MARK: - Bytes

    private func isLocation(_ qualified: Range<Int>) -> Bool {
        guard let colon = text[qualified].firstIndex(of: UInt8(ascii: ":")) else { return false }
        let prefix = Array(text[qualified.lowerBound..<colon])
        let local = text[(colon + 1)..<qualified.upperBound]
        guard let namespace = locationPrefixes[prefix] else {
            return !XMPStructure.prefixes.contains(prefix) && Self.placeNames.contains(String(decoding: local, as: UTF8.self))
        }
        return namespace.isLocation(local)
    }

    /// Whether a location property (`isLocation`) places the photo.
    private func saysLocation(_ qualified: Range<Int>) -> Bool {
        guard let colon = text[qualified].firstIndex(of: UInt8(ascii: ":")) else { return false }
        guard let namespace = locationPrefixes[Array(text[qualified.lowerBound..<colon])] else { return true }
        return namespace.says(text[(colon + 1)..<qualified.upperBound])
    }

    /// Whether a qualified name is the EXIF namespace's GPSLatitude or GPSLongitude.
    private func isCoordinate(_ qualified: Range<Int>) -> Bool {
        guard let colon = text[qualified].firstIndex(of: UInt8(ascii: ":")),
            locationPrefixes[Array(text[qualified.lowerBound..<colon])] == .exif
        else {
            return false
        }
        let local = text[(colon + 1)..<qualified.upperBound]
        return local.elementsEqual("GPSLatitude".utf8) || local.elementsEqual("GPSLongitude".utf8)
    }
}
