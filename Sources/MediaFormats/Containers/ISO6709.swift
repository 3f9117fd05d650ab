/// Parses ISO 6709 location strings as QuickTime writes them (`+37.4230-122.1620+010.000/`):
/// latitude, longitude, optional altitude, each with a sign; degrees (`±DD.D`, `±DDD.D`),
/// degrees-minutes (`±DDMM.M`, `±DDDMM.M`) or degrees-minutes-seconds forms.
enum ISO6709 {
    static func parse(_ text: String) -> GeoLocation? {
        var tokens: [String] = []
        for scalar in text.unicodeScalars {
            if scalar == "/" || scalar == "C" { break }  // End of string, or a CRS suffix.
            if scalar == "+" || scalar == "-" {
                tokens.append(String(scalar))
            } else if scalar == "." || ("0"..."9").contains(scalar) {
                guard !tokens.isEmpty else { return nil }
                tokens[tokens.count - 1].unicodeScalars.append(scalar)
            } else if scalar == "\0" || scalar == " " {
                if !tokens.isEmpty { break }
            } else {
                return nil
            }
        }
        guard tokens.count >= 2, let lat = angle(tokens[0], degreeDigits: 2), let lon = angle(tokens[1], degreeDigits: 3) else {
            return nil
        }
        let altitude = tokens.count >= 3 ? Double(tokens[2]) : nil
        let location = GeoLocation(latitude: lat, longitude: lon, altitude: altitude)
        return location.isValid ? location : nil
    }

    /// One signed angle; the number of integer digits tells the form.
    private static func angle(_ token: String, degreeDigits: Int) -> Double? {
        guard let sign = token.first, token.count > 1 else { return nil }
        let body = token.dropFirst()
        let integer = body.prefix { $0 != "." }
        let fraction = body.dropFirst(integer.count)
        guard !integer.isEmpty, integer.allSatisfy(\.isASCII) else { return nil }
        var value: Double
        switch integer.count {
        case degreeDigits + 2:
            guard let d = Double(integer.prefix(degreeDigits)), let m = Double(integer.dropFirst(degreeDigits) + fraction) else {
                return nil
            }
            value = d + m / 60
        case degreeDigits + 4:
            guard let d = Double(integer.prefix(degreeDigits)), let m = Double(integer.dropFirst(degreeDigits).prefix(2)),
                let s = Double(integer.dropFirst(degreeDigits + 2) + fraction)
            else { return nil }
            value = d + m / 60 + s / 3600
        default:
            guard let d = Double(body) else { return nil }
            value = d
        }
        return sign == "-" ? -value : value
    }
}
