/// Why a duration (`--for 1h`, `--grants-expire 7d`) or a date (`--until 2026-12-24T18:00`)
/// could not be parsed.
///
/// Every position (`at:`) is a 0-based character offset in the value; `description` shows
/// it 1-based as a column, says what was expected and how to fix it.
public enum ExpiryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing was given.
    case empty
    /// A unit letter with no number before it, or a character that is neither digit nor unit.
    case expectedNumber(String, at: Int)
    /// A number with no unit after it (`--for 30`).
    case missingUnit(at: Int)
    /// A letter that is not a unit (`--for 3y`).
    case unknownUnit(String, at: Int)
    /// A duration of zero, or one longer than `ExpiryParser.longest`.
    case outOfRange(at: Int)
    /// A date or time that is not `YYYY-MM-DD[THH:MM[:SS]][Z|±HH:MM]`, or a field out of range
    /// (month 13, 25 o'clock); `at` points at the offending field.
    case badDate(field: String, at: Int)

    /// Where the problem is, as a 0-based character offset.
    public var position: Int {
        switch self {
        case .empty: 0
        case .expectedNumber(_, let at), .missingUnit(let at), .unknownUnit(_, let at), .outOfRange(let at), .badDate(_, let at): at
        }
    }

    public var description: String {
        let column = "column \(position + 1)"
        switch self {
        case .empty:
            return "empty value; give a duration such as 1h, 30m, 7d or a date such as 2026-12-24T18:00"
        case .expectedNumber(let found, _):
            return "expected a number at \(column), found '\(found)'; write durations like 90s, 30m, 1h30m, 7d, 2w"
        case .missingUnit:
            return "number without a unit at \(column); add s, m, h, d or w (1h, not 1)"
        case .unknownUnit(let unit, _):
            return "unknown unit '\(unit)' at \(column); use s, m, h, d or w"
        case .outOfRange:
            return "duration at \(column) is zero or longer than 100 years"
        case .badDate(let field, _):
            return "bad \(field) at \(column); write YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], optionally ending in Z or +HH:MM"
        }
    }
}
