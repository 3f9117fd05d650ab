/// The moment a photo was taken, as the camera wrote it: a local wall-clock time and,
/// when the file says so, its offset from UTC.
///
/// Filters compare the local date (`taken:2024-06`), which is what a person means.
public struct CaptureDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Minutes east of UTC, when known (EXIF OffsetTimeOriginal, or UTC for video atoms).
    public var utcOffsetMinutes: Int?

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, utcOffsetMinutes: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Parses the EXIF form `YYYY:MM:DD HH:MM:SS` (also `-` as date separator and a `T`);
    /// nil for blanks, zeros and anything out of range.
    public init?(exif text: String) {
        let digits = text.split(whereSeparator: { ":- T".contains($0) }).map { Int($0) }
        guard digits.count >= 3, let y = digits[0], let mo = digits[1], let d = digits[2],
            (1..<10000).contains(y), (1...12).contains(mo), (1...31).contains(d)
        else { return nil }
        let h = digits.count > 3 ? digits[3] ?? 0 : 0
        let mi = digits.count > 4 ? digits[4] ?? 0 : 0
        let s = digits.count > 5 ? digits[5] ?? 0 : 0
        guard (0...23).contains(h), (0...59).contains(mi), (0...60).contains(s) else { return nil }
        self.init(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    }

    /// The local date and time as one sortable number: YYYYMMDDHHMMSS.
    public var sortKey: Int64 {
        Int64(year) * 10_000_000_000 + Int64(month) * 100_000_000 + Int64(day) * 1_000_000
            + Int64(hour) * 10_000 + Int64(minute) * 100 + Int64(second)
    }

    /// `YYYY-MM-DD HH:MM:SS` with `+HH:MM` when the offset is known.
    public var description: String {
        var text = "\(pad(year, 4))-\(pad(month))-\(pad(day)) \(pad(hour)):\(pad(minute)):\(pad(second))"
        if let offset = utcOffsetMinutes {
            let sign = offset < 0 ? "-" : "+"
            text += "\(sign)\(pad(abs(offset) / 60)):\(pad(abs(offset) % 60))"
        }
        return text
    }

    public static func < (lhs: CaptureDate, rhs: CaptureDate) -> Bool { lhs.sortKey < rhs.sortKey }
}

private func pad(_ value: Int, _ width: Int = 2) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
}

/// Where an asset's capture date came from, most trusted first.
///
/// `modifyDate` is EXIF DateTime (0x0132, exiftool's ModifyDate): the last time a
/// program changed the file, used only when the capture tags are missing.
public enum DateSource: String, Sendable, Codable {
    case dateTimeOriginal, createDate, dateTimeDigitized, modifyDate, quickTime, xmp, fileModification
}

extension CaptureDate {
    /// The UTC wall-clock time of a Unix timestamp (civil-from-days, proleptic Gregorian).
    public init(unixSeconds: Int64) {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondsOfDay = Int(unixSeconds - days * 86_400)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        self.init(
            year: year, month: month, day: day, hour: secondsOfDay / 3600, minute: secondsOfDay % 3600 / 60, second: secondsOfDay % 60,
            utcOffsetMinutes: 0)
    }

    /// The proleptic Gregorian date of the day `days` after 1970-01-01 (civil-from-days:
    /// years counted from March, so that the leap day is the last day of its year).
    public static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (Int(yoe + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }

    /// Minutes east of UTC from `+HH:MM` / `-HH:MM` (also `Z`); nil for anything else.
    public static func utcOffsetMinutes(_ text: String) -> Int? {
        if text == "Z" { return 0 }
        let scalars = Array(text.utf8)
        guard scalars.count == 6, scalars[0] == 0x2B || scalars[0] == 0x2D, scalars[3] == 0x3A,
            let hours = Int(String(decoding: scalars[1..<3], as: UTF8.self)),
            let minutes = Int(String(decoding: scalars[4..<6], as: UTF8.self)),
            (0...14).contains(hours), (0...59).contains(minutes)
        else { return nil }
        let total = hours * 60 + minutes
        return scalars[0] == 0x2D ? -total : total
    }
}
