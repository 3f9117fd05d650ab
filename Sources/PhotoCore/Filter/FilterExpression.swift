/// A parsed filter: the typed syntax tree that `FilterParser` builds and
/// `matches(_:)` evaluates.
///
/// `.and([])` matches everything (the empty filter); `.or([])` matches nothing.
public indirect enum FilterExpression: Hashable, Sendable {
    /// Every operand must match (terms separated by spaces, or `AND`).
    case and([FilterExpression])
    /// At least one operand must match (`OR`).
    case or([FilterExpression])
    /// The operand must not match (`-term` or `NOT term`).
    case not(FilterExpression)
    /// One `key:value` test.
    case term(FilterTerm)

    /// The expression that matches every asset.
    public static let everything = FilterExpression.and([])
}

/// The keys of the filter language.
public enum FilterKey: String, Hashable, Sendable, CaseIterable {
    case type, taken, make, model, camera, lens, has, orientation, width, height, megapixels, ext, mime, size, folder, name

    /// What the key's value looks like, for error messages.
    public var expectation: FilterExpectation {
        switch self {
        case .type: .mediaType
        case .taken: .date
        case .make, .model, .camera, .lens, .ext: .text
        case .mime: .mime
        case .has: .hasProperty
        case .orientation: .orientation
        case .width, .height: .number
        case .megapixels: .decimal
        case .size: .size
        case .folder: .folder
        case .name: .glob
        }
    }
}

/// One typed `key:value` test.
public enum FilterTerm: Hashable, Sendable {
    case type(FilterMediaType)
    case taken(Comparison<DatePeriod>)
    /// Case-insensitive substring of EXIF Make (stored lower-cased).
    case make(String)
    /// Case-insensitive substring of EXIF Model (stored lower-cased).
    case model(String)
    /// Case-insensitive substring of Make, Model, or "Make Model" (stored lower-cased).
    case camera(String)
    /// Case-insensitive substring of the lens model (stored lower-cased).
    case lens(String)
    case has(FilterProperty)
    /// The EXIF orientation, exactly (1...8).
    case orientation(Int)
    case width(Comparison<Int64>)
    case height(Comparison<Int64>)
    case megapixels(Comparison<Decimal1e6>)
    /// The file extension without its dot, lower-cased; compared exactly.
    case ext(String)
    /// A MIME type (lower-cased), exact, or `type/*` for every subtype.
    case mime(String)
    /// The file size in bytes.
    case size(Comparison<Int64>)
    /// A folder, as path components; matches that folder and everything below it.
    case folder([[UInt8]])
    case name(Glob)
}

/// The media classes of `type:`.
public enum FilterMediaType: String, Hashable, Sendable, CaseIterable {
    case image, video, live, screenshot, panorama
}

/// The properties of `has:`.
public enum FilterProperty: String, Hashable, Sendable, CaseIterable {
    /// Valid GPS coordinates.
    case location
    /// An EXIF block was found and parsed.
    case exif
    /// A real capture date from the file (not the modification-time fallback).
    case date
}

/// A comparison of one value against a bound: `:V`, `:>V`, `:>=V`, `:<V`, `:<=V`, `:A..B`
/// (both ends inclusive; `A..` and `..B` leave one end open).
public enum Comparison<Bound: Hashable & Sendable>: Hashable, Sendable {
    case equal(Bound)
    case less(Bound)
    case lessOrEqual(Bound)
    case greater(Bound)
    case greaterOrEqual(Bound)
    case between(Bound?, Bound?)
}

/// A megapixel count as an exact fixed-point number (millionths), with the number of
/// decimals the user wrote, so that `megapixels:12` means "12 when rounded to a whole number".
public struct Decimal1e6: Hashable, Sendable {
    /// The value times 1,000,000.
    public var micros: Int64
    /// How many decimals were written (0...6): the precision an equality test uses.
    public var decimals: Int
}

/// A calendar year, month or day as written in `taken:`: the whole period it covers.
public struct DatePeriod: Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int?
    public var day: Int?

    public init(year: Int, month: Int? = nil, day: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The sort key (`CaptureDate.sortKey` form) of the period's first second.
    public var firstKey: Int64 {
        let m = Int64(month ?? 1)
        let d = Int64(day ?? 1)
        return Int64(year) * 10_000_000_000 + m * 100_000_000 + d * 1_000_000
    }

    /// The sort key of the period's last second.
    public var lastKey: Int64 {
        let m = Int64(month ?? 12)
        let d = Int64(day ?? 31)
        // Day 31 of any month is past its last real day, which is harmless for comparisons.
        return Int64(year) * 10_000_000_000 + m * 100_000_000 + d * 1_000_000 + 235_959
    }

    public var description: String {
        var text = String(year)
        while text.count < 4 { text = "0" + text }
        if let month { text += "-" + (month < 10 ? "0" : "") + String(month) }
        if let day { text += "-" + (day < 10 ? "0" : "") + String(day) }
        return text
    }
}
