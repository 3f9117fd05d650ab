import Glibc

/// Wall-clock times written for people and logs.
public enum CalendarTime {
    /// `seconds` since 1970 in UTC as `2024-06-15T10:30:00Z`.
    public static func utcTimestamp(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
