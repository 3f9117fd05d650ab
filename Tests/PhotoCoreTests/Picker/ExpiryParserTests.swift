import Testing

@testable import PhotoCore

/// Durations and dates of grant lifetimes, and their positioned errors.
@Suite struct ExpiryParserTests {
    @Test(
        arguments: [
            ("90s", 90), ("30m", 1_800), ("1h", 3_600), ("1h30m", 5_400), ("7d", 604_800), ("2w", 1_209_600), ("1d12h", 129_600),
        ] as [(String, Int64)])
    func durations(text: String, seconds: Int64) throws {
        #expect(try ExpiryParser.seconds(text) == seconds)
        // Written back in the largest unit that divides it, and read back the same.
        #expect(try ExpiryParser.seconds(ExpiryParser.text(seconds: seconds)) == seconds)
    }

    @Test(arguments: [
        ("", ExpiryError.empty, "empty value; give a duration such as 1h, 30m, 7d or a date such as 2026-12-24T18:00"),
        ("30", .missingUnit(at: 2), "number without a unit at column 3; add s, m, h, d or w (1h, not 1)"),
        ("3y", .unknownUnit("y", at: 1), "unknown unit 'y' at column 2; use s, m, h, d or w"),
        ("h", .expectedNumber("h", at: 0), "expected a number at column 1, found 'h'; write durations like 90s, 30m, 1h30m, 7d, 2w"),
        ("1h 5m", .expectedNumber(" ", at: 2), "expected a number at column 3, found ' '; write durations like 90s, 30m, 1h30m, 7d, 2w"),
        ("0s", .outOfRange(at: 0), "duration at column 1 is zero or longer than 100 years"),
        ("1d99999999999s", .outOfRange(at: 2), "duration at column 3 is zero or longer than 100 years"),
        ("-1h", .expectedNumber("-", at: 0), "expected a number at column 1, found '-'; write durations like 90s, 30m, 1h30m, 7d, 2w"),
    ])
    func badDurations(text: String, error: ExpiryError, message: String) {
        #expect(throws: error) { try ExpiryParser.seconds(text) }
        #expect(error.description == message)
    }

    /// Local time is the test's own zone here (UTC+1), so the parser's arithmetic is what is checked.
    static func plusOne(_ civil: CivilTime) -> Int64? { civil.secondsSinceEpochUTC - 3_600 }

    @Test(
        arguments: [
            ("2026-12-24T18:00Z", 1_798_135_200), ("2026-12-24T18:00:00Z", 1_798_135_200), ("2026-12-24 18:00Z", 1_798_135_200),
            ("2026-12-24T18:00+01:00", 1_798_131_600), ("2026-12-24T16:30-00:30", 1_798_131_600), ("2024-02-29Z", 1_709_164_800),
            ("2026-12-24T18:00", 1_798_131_600), ("2024-02-29", 1_709_161_200),
        ] as [(String, Int64)])
    func dates(text: String, seconds: Int64) throws {
        #expect(try ExpiryParser.nanoseconds(text, localSeconds: Self.plusOne) == seconds * 1_000_000_000)
    }

    @Test(arguments: [
        ("26-12-24", ExpiryError.badDate(field: "year", at: 2)),
        ("1969-12-31", .badDate(field: "year", at: 0)),
        ("2026/12/24", .badDate(field: "date separator", at: 4)),
        ("2026-13-01", .badDate(field: "month", at: 5)),
        ("2026-02-29", .badDate(field: "day", at: 8)),
        ("2026-12-24T25:00", .badDate(field: "hour", at: 11)),
        ("2026-12-24T18:60", .badDate(field: "minute", at: 14)),
        ("2026-12-24T18", .badDate(field: "time separator", at: 13)),
        ("2026-12-24T18:00+1", .badDate(field: "zone offset", at: 18)),
        ("2026-12-24x", .badDate(field: "end of date", at: 10)),
        ("2026-12-24T18:00Zx", .badDate(field: "end of date", at: 17)),
    ])
    func badDates(text: String, error: ExpiryError) {
        #expect(throws: error) { try ExpiryParser.nanoseconds(text, localSeconds: Self.plusOne) }
        #expect(error.description.contains("column \(error.position + 1)"))
    }

    @Test func aTimeThatDoesNotExistLocallyIsRefused() {
        #expect(throws: ExpiryError.badDate(field: "local time (it does not exist here)", at: 0)) {
            try ExpiryParser.nanoseconds("2026-03-29T02:30", localSeconds: { _ in nil })
        }
    }

    @Test(arguments: [0, 1_709_164_800, 1_798_135_200, 4_102_444_799] as [Int64])
    func utcTextReadsBack(seconds: Int64) throws {
        let text = CivilTime.utcText(secondsSinceEpoch: seconds)
        #expect(try ExpiryParser.nanoseconds(text) == seconds * 1_000_000_000)
    }

    @Test func utcTextIsISO() {
        #expect(CivilTime.utcText(secondsSinceEpoch: 1_798_135_200) == "2026-12-24T18:00:00Z")
    }
}
