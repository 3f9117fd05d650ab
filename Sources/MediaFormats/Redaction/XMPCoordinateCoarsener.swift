/// Rounds an XMP GPS coordinate (`DDD,MM.mmk` or `DDD,MM,SSk`, k one of N S E W, as the
/// XMP specification writes EXIF GPS values) to 0.01°, written `DDD,MM.mk`: 0.01° is 0.6
/// minutes, so one decimal of minutes holds it exactly. Used by the `coarse` policy.
///
/// Returns nil for anything else (the caller blanks the property).
enum XMPCoordinateCoarsener {
    static func coarsen(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        let string = String(decoding: text, as: UTF8.self)
        guard let reference = string.last, "NSEW".contains(reference) else { return nil }
        let parts = string.dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let degrees = UInt32(parts[0]), degrees <= 180 else { return nil }
        // Minutes (and seconds) as exact decimal fractions, in units of 10^-6 minute.
        guard let minutes = micro(parts[1]) else { return nil }
        var totalMicroMinutes = UInt64(degrees) * 60_000_000 + minutes
        if parts.count == 3 {
            guard let seconds = micro(parts[2]) else { return nil }
            totalMicroMinutes += seconds / 60
        }
        // Hundredths of a degree = 0.6 minute = 600,000 micro-minutes; round half up.
        let hundredths = (totalMicroMinutes + 300_000) / 600_000
        guard hundredths <= 18_000 else { return nil }
        let tenthsOfMinute = (hundredths % 100) * 6
        let result = "\(hundredths / 100),\(tenthsOfMinute / 10).\(tenthsOfMinute % 10)\(reference)"
        return Array(result.utf8)
    }

    /// A non-negative decimal with up to 6 places, times 10^6; nil if not that shape.
    private static func micro(_ text: Substring) -> UInt64? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let whole = UInt64(pieces[0]), whole < 1_000_000 else { return nil }
        var fraction: UInt64 = 0
        if pieces.count == 2 {
            let digits = pieces[1].prefix(6)
            guard !pieces[1].isEmpty, pieces[1].allSatisfy({ $0 >= "0" && $0 <= "9" }), let value = UInt64(digits) else { return nil }
            fraction = value
            for _ in digits.count..<6 { fraction *= 10 }
        }
        return whole * 1_000_000 + fraction
    }
}
