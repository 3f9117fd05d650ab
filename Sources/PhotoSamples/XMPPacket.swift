import MediaFormats

/// Builds a small XMP packet of the kind phones and editors add beside EXIF: a create
/// date and, optionally, a location in XMP's `DDD,MM.mmmmmmK` form (so redaction has XMP
/// location to blank as well).
public enum XMPPacket {
    public static func make(taken: CaptureDate?, location: GeoLocation?, creatorTool: String? = nil) -> String {
        var attributes: [String] = []
        if let taken {
            var date =
                "\(digits(taken.year, 4))-\(digits(taken.month))-\(digits(taken.day))T\(digits(taken.hour)):\(digits(taken.minute)):\(digits(taken.second))"
            if let offset = taken.utcOffsetMinutes { date += ExifBuilder.offsetText(offset) }
            attributes.append("xmp:CreateDate=\"\(date)\"")
        }
        if let creatorTool { attributes.append("xmp:CreatorTool=\"\(TextEscaping.xml(creatorTool))\"") }
        if let location {
            attributes.append("exif:GPSLatitude=\"\(coordinate(location.latitude, positive: "N", negative: "S"))\"")
            attributes.append("exif:GPSLongitude=\"\(coordinate(location.longitude, positive: "E", negative: "W"))\"")
        }
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:exif="http://ns.adobe.com/exif/1.0/"
                \(attributes.joined(separator: "\n    "))/>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
    }

    /// `DDD,MM.mmmmmmK`: whole degrees, decimal minutes to 1e-6, hemisphere letter.
    static func coordinate(_ value: Double, positive: String, negative: String) -> String {
        let magnitude = value.isFinite ? min(abs(value), 180) : 0
        let microMinutes = UInt64((magnitude * 60 * 1_000_000).rounded())
        let degrees = microMinutes / 60_000_000
        let rest = microMinutes % 60_000_000
        let minutes = rest / 1_000_000
        let fraction = rest % 1_000_000
        return "\(degrees),\(digits(Int(minutes))).\(digits(Int(fraction), 6))\(value < 0 ? negative : positive)"
    }
}
