/// The one parser of grant lifetimes: durations (`--for`, `--grants-expire`) and dates
/// (`--until`).
///
/// - A duration is one or more `NUMBER UNIT` pairs, units `s` `m` `h` `d` `w`
///   (`90s`, `30m`, `1h30m`, `7d`, `2w`), more than zero and at most 100 years.
/// - A date is `YYYY-MM-DD` (00:00 that day), `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`
///   (a space may stand for the `T`), in local time unless it ends in `Z` (UTC) or an
///   offset `+HH:MM` / `-HH:MM`.
public enum ExpiryParser {
    /// The longest duration accepted, in seconds.
    public static let longest: Int64 = 100 * 366 * 86_400

    /// A duration in seconds.
    public static func seconds(_ text: String) throws(ExpiryError) -> Int64 {
        let characters = Array(text)
        guard !characters.isEmpty else { throw .empty }
        var total: Int64 = 0
        var index = 0
        while index < characters.count {
            let start = index
            var number: Int64 = 0
            while index < characters.count, let digit = characters[index].wholeNumberValue, characters[index].isASCII {
                number = number * 10 + Int64(digit)
                if number > longest { throw .outOfRange(at: start) }
                index += 1
            }
            guard index > start else { throw .expectedNumber(String(characters[index]), at: index) }
            guard index < characters.count else { throw .missingUnit(at: index) }
            let unit: Int64
            switch characters[index] {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            case "d": unit = 86_400
            case "w": unit = 604_800
            default: throw .unknownUnit(String(characters[index]), at: index)
            }
            total += number * unit
            if total > longest { throw .outOfRange(at: start) }
            index += 1
        }
        guard total > 0 else { throw .outOfRange(at: 0) }
        return total
    }

    /// A duration as `seconds` reads it back: in the largest unit up to days that divides it
    /// (`7d`, `90m`: a person wrote `7d` more likely than `1w`).
    public static func text(seconds: Int64) -> String {
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60)] where seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }

    /// A date as nanoseconds since 1970. `localSeconds` turns a local civil time into
    /// seconds since 1970 (nil when the time does not exist there, e.g. in a DST gap).
    public static func nanoseconds(
        _ text: String, localSeconds: (CivilTime) -> Int64? = LocalTime.seconds
    ) throws(ExpiryError) -> Int64 {
        let c = Array(text)
        guard !c.isEmpty else { throw .empty }
        var index = 0
        func number(_ digits: Int, _ field: String) throws(ExpiryError) -> Int {
            var value = 0
            for offset in 0..<digits {
                guard index + offset < c.count, c[index + offset].isASCII, let digit = c[index + offset].wholeNumberValue else {
                    throw .badDate(field: field, at: min(index + offset, c.count))
                }
                value = value * 10 + digit
            }
            index += digits
            return value
        }
        func expect(_ options: Set<Character>, _ field: String) throws(ExpiryError) {
            guard index < c.count, options.contains(c[index]) else { throw .badDate(field: field, at: min(index, c.count)) }
            index += 1
        }
        var civil = CivilTime(year: 0, month: 0, day: 0)
        let yearAt = index
        civil.year = try number(4, "year")
        if civil.year < 1970 { throw .badDate(field: "year", at: yearAt) }
        try expect(["-"], "date separator")
        let monthAt = index
        civil.month = try number(2, "month")
        guard (1...12).contains(civil.month) else { throw .badDate(field: "month", at: monthAt) }
        try expect(["-"], "date separator")
        let dayAt = index
        civil.day = try number(2, "day")
        guard (1...CivilTime.days(inMonth: civil.month, of: civil.year)).contains(civil.day) else {
            throw .badDate(field: "day", at: dayAt)
        }
        if index < c.count, c[index] == "T" || c[index] == " " {
            index += 1
            let hourAt = index
            civil.hour = try number(2, "hour")
            guard civil.hour < 24 else { throw .badDate(field: "hour", at: hourAt) }
            try expect([":"], "time separator")
            let minuteAt = index
            civil.minute = try number(2, "minute")
            guard civil.minute < 60 else { throw .badDate(field: "minute", at: minuteAt) }
            if index < c.count, c[index] == ":" {
                index += 1
                let secondAt = index
                civil.second = try number(2, "second")
                guard civil.second < 60 else { throw .badDate(field: "second", at: secondAt) }
            }
        }
        var offsetSeconds: Int64? = nil
        if index < c.count {
            let zoneAt = index
            if c[index] == "Z" {
                index += 1
                offsetSeconds = 0
            } else if c[index] == "+" || c[index] == "-" {
                let sign: Int64 = c[index] == "-" ? -1 : 1
                index += 1
                let hours = try number(2, "zone offset")
                try expect([":"], "zone offset")
                let minutes = try number(2, "zone offset")
                guard hours <= 14, minutes < 60 else { throw .badDate(field: "zone offset", at: zoneAt) }
                offsetSeconds = sign * Int64(hours * 3_600 + minutes * 60)
            } else {
                throw .badDate(field: "end of date", at: index)
            }
            if index < c.count { throw .badDate(field: "end of date", at: index) }
        }
        let seconds: Int64
        if let offsetSeconds {
            seconds = civil.secondsSinceEpochUTC - offsetSeconds
        } else {
            guard let local = localSeconds(civil) else { throw .badDate(field: "local time (it does not exist here)", at: 0) }
            seconds = local
        }
        return seconds * 1_000_000_000
    }
}

/// A calendar date and wall-clock time without a zone.
public struct CivilTime: Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour = 0
    public var minute = 0
    public var second = 0

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Seconds since 1970 when this is a UTC time (proleptic Gregorian calendar).
    public var secondsSinceEpochUTC: Int64 {
        // Days before this date since 1970-01-01, counted by whole years then months.
        var days: Int64 = 0
        for y in 1970..<year { days += (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 366 : 365 }
        for m in 1..<month { days += Int64(Self.days(inMonth: m, of: year)) }
        days += Int64(day - 1)
        return days * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of a UTC time `seconds` since 1970: how an expiry is written back.
    public static func utcText(secondsSinceEpoch seconds: Int64) -> String {
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        var year = 1970
        while true {
            let length: Int64 = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 366 : 365
            if days < length { break }
            days -= length
            year += 1
        }
        var month = 1
        while days >= Int64(Self.days(inMonth: month, of: year)) {
            days -= Int64(Self.days(inMonth: month, of: year))
            month += 1
        }
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = String(year)
        return "\(y)-\(two(Int64(month)))-\(two(days + 1))T\(two(rest / 3_600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }
}
