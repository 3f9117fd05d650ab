import MediaFormats

/// Calendar arithmetic for the access log's UTC days, in plain integers (no time zone
/// database is involved: every day of the log is a UTC day).
public enum UTCDay {
    static let nanosecondsPerDay: Int64 = 86_400 * 1_000_000_000

    /// The day (since 1970-01-01) that holds the instant `nanoseconds` since the epoch.
    public static func day(ofNanoseconds nanoseconds: Int64) -> Int {
        Int(nanoseconds >= 0 ? nanoseconds / nanosecondsPerDay : (nanoseconds - nanosecondsPerDay + 1) / nanosecondsPerDay)
    }

    /// The first instant of `day`, in ns since the epoch.
    public static func start(of day: Int) -> Int64 { Int64(day) * nanosecondsPerDay }

    /// The day of a proleptic Gregorian date, or nil when the date does not exist.
    public static func day(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        // Years counted from March, so that the leap day is the last day of its year.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of `day`.
    public static func date(of day: Int) -> (year: Int, month: Int, day: Int) {
        CaptureDate.civilDate(daysSince1970: Int64(day))
    }

    /// `YYYY-MM-DD`.
    public static func text(of day: Int) -> String {
        let date = date(of: day)
        return pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of an instant (whole seconds).
    public static func timestamp(ofNanoseconds nanoseconds: Int64) -> String {
        let day = day(ofNanoseconds: nanoseconds)
        let seconds = Int((nanoseconds - start(of: day)) / 1_000_000_000)
        return text(of: day) + "T" + pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2) + "Z"
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
