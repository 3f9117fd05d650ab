import PhotoCore

/// The access log's option values: a retention (`30d`) and a `--since` (a date, a time or
/// a duration back from now). Errors name the option, the text and the column.
enum AccessLogArguments {
    /// The default retention: 30 days.
    static let defaultRetentionDays = 30

    /// Nanoseconds of a `--log-retention` value (`Nd`, `Nw` or `Nh`, at least one hour).
    static func retention(_ text: String?) throws(CLIError) -> Int64 {
        guard let text else { return Int64(defaultRetentionDays) * 86_400 * 1_000_000_000 }
        return try duration(text, option: "--log-retention")
    }

    /// The instant (ns since the epoch) a `--since` value names: `YYYY-MM-DD` (the start
    /// of that UTC day), `YYYY-MM-DDTHH:MM[:SS]` (UTC), or a duration back from `now` (`7d`).
    static func since(_ text: String, now: Int64) throws(CLIError) -> Int64 {
        if !text.contains("-") {
            return now - (try duration(text, option: "--since"))
        }
        let characters = Array(text)
        func number(_ from: Int, _ count: Int) throws(CLIError) -> Int {
            guard from + count <= characters.count, let value = Int(String(characters[from..<(from + count)])),
                characters[from..<(from + count)].allSatisfy(\.isNumber)
            else { throw bad(text, column: min(from, characters.count) + 1, "expected \(count) digits") }
            return value
        }
        func separator(_ at: Int, _ expected: Character) throws(CLIError) {
            guard at < characters.count, characters[at] == expected else { throw bad(text, column: at + 1, "expected '\(expected)'") }
        }
        let year = try number(0, 4)
        try separator(4, "-")
        let month = try number(5, 2)
        try separator(7, "-")
        let dayOfMonth = try number(8, 2)
        guard let day = UTCDay.day(year: year, month: month, day: dayOfMonth) else {
            throw bad(text, column: 6, "no such date")
        }
        var seconds = 0
        if characters.count > 10 {
            try separator(10, "T")
            let hour = try number(11, 2)
            try separator(13, ":")
            let minute = try number(14, 2)
            var second = 0
            if characters.count > 16 {
                try separator(16, ":")
                second = try number(17, 2)
            }
            guard hour < 24, minute < 60, second < 60 else { throw bad(text, column: 12, "no such time") }
            let end = characters.count > 16 ? 19 : 16
            guard characters.count == end || (characters.count == end + 1 && characters[end] == "Z") else {
                throw bad(text, column: end + 1, "unexpected text (times are UTC; a trailing Z is allowed)")
            }
            seconds = hour * 3600 + minute * 60 + second
        }
        return UTCDay.start(of: day) + Int64(seconds) * 1_000_000_000
    }

    /// Nanoseconds of `N` followed by one unit: `h` (hours), `d` (days) or `w` (weeks).
    static func duration(_ text: String, option: String) throws(CLIError) -> Int64 {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let count = Int64(digits), count > 0, count <= 100_000 else {
            throw .usage("\(option) '\(text)' at column 1: expected a number of hours, days or weeks from 1, like 30d, 12h or 2w.")
        }
        let unit = text.dropFirst(digits.count)
        let hours: Int64
        switch unit {
        case "h": hours = 1
        case "d": hours = 24
        case "w": hours = 24 * 7
        default:
            throw .usage("\(option) '\(text)' at column \(digits.count + 1): expected the unit h, d or w.")
        }
        return count * hours * 3_600 * 1_000_000_000
    }

    private static func bad(_ text: String, column: Int, _ what: String) -> CLIError {
        .usage("--since '\(text)' at column \(column): \(what); use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (UTC) or a duration like 7d.")
    }
}
