/// Rounds an ISO 6709 location string as QuickTime stores it (`+37.4217-122.0834+010.000/`,
/// decimal degrees) to 0.01° in place: `+37.42-122.08/`. The altitude and anything after it
/// are dropped; integer widths keep their leading zeros. Used by the `coarse` policy for
/// `©xyz` and the `com.apple.quicktime.location.ISO6709` value.
///
/// Returns nil for anything it does not understand (degrees-minutes notation, a missing
/// sign, more digits than it can round exactly): the caller then blanks the value.
enum ISO6709Coarsener {
    /// The rounded text, never longer than `text`, or nil.
    static func coarsen(_ text: [UInt8]) -> [UInt8]? {
        var index = 0
        guard let latitude = component(text, &index, maxIntegerDigits: 2, limit: 90),
            let longitude = component(text, &index, maxIntegerDigits: 3, limit: 180)
        else { return nil }
        let result = latitude + longitude + [UInt8(ascii: "/")]
        return result.count <= text.count ? result : nil
    }

    /// Reads one signed decimal-degree component at `index` and returns it rounded.
    private static func component(_ text: [UInt8], _ index: inout Int, maxIntegerDigits: Int, limit: Int) -> [UInt8]? {
        guard index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") else { return nil }
        let sign = text[index]
        index += 1
        var integer = 0
        var integerDigits = 0
        while index < text.count, let digit = digitValue(text[index]) {
            integer = integer * 10 + digit
            integerDigits += 1
            index += 1
            guard integerDigits <= maxIntegerDigits else { return nil }
        }
        guard integerDigits >= 1 else { return nil }
        // Fraction: keep exact digits up to 9 places, as an integer count of 10^-9.
        var nanos = 0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 100_000_000
            while index < text.count, let digit = digitValue(text[index]) {
                nanos += digit * scale
                scale /= 10
                index += 1
            }
        }
        // Round half up to hundredths.
        let hundredths = integer * 100 + (nanos + 5_000_000) / 10_000_000
        guard hundredths <= limit * 100 else { return nil }
        let whole = String(hundredths / 100)
        let padded = String(repeating: "0", count: max(0, integerDigits - whole.count)) + whole
        let fraction = hundredths % 100
        return [sign] + Array(padded.utf8) + [UInt8(ascii: ".")] + Array((fraction < 10 ? "0\(fraction)" : "\(fraction)").utf8)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
