import PhotoCore
import Testing

@Suite("UTC days of the access log")
struct UTCDayTests {
    @Test(arguments: [
        (1970, 1, 1, 0), (1969, 12, 31, -1), (2000, 2, 29, 11_016), (2000, 3, 1, 11_017), (2026, 12, 1, 20_788),
        (1900, 3, 1, -25_508), (2400, 2, 29, 157_113),
    ])
    func knownDates(year: Int, month: Int, day: Int, expected: Int) {
        #expect(UTCDay.day(year: year, month: month, day: day) == expected)
        let back = UTCDay.date(of: expected)
        #expect(back.year == year && back.month == month && back.day == day)
    }

    @Test func everyDayOfFourHundredYearsRoundTrips() {
        var previous: Int?
        for year in 1800...2200 {
            for month in 1...12 {
                for day in 1...31 {
                    guard let number = UTCDay.day(year: year, month: month, day: day) else { continue }
                    if let previous { #expect(number == previous + 1) }
                    previous = number
                    let back = UTCDay.date(of: number)
                    if back.year != year || back.month != month || back.day != day { Issue.record("\(year)-\(month)-\(day)") }
                }
            }
        }
    }

    @Test func impossibleDatesAreNil() {
        #expect(UTCDay.day(year: 2023, month: 2, day: 29) == nil)
        #expect(UTCDay.day(year: 1900, month: 2, day: 29) == nil)
        #expect(UTCDay.day(year: 2024, month: 13, day: 1) == nil)
        #expect(UTCDay.day(year: 2024, month: 4, day: 31) == nil)
        #expect(UTCDay.day(year: 2024, month: 1, day: 0) == nil)
    }

    @Test func instantsAndTheirText() {
        let second: Int64 = 1_000_000_000
        #expect(UTCDay.day(ofNanoseconds: 0) == 0)
        #expect(UTCDay.day(ofNanoseconds: -1) == -1)
        #expect(UTCDay.day(ofNanoseconds: 86_400 * second - 1) == 0)
        #expect(UTCDay.text(of: 20_788) == "2026-12-01")
        #expect(UTCDay.timestamp(ofNanoseconds: (20_788 * 86_400 + 18 * 3600 + 5 * 60 + 9) * second + 999) == "2026-12-01T18:05:09Z")
        #expect(UTCDay.timestamp(ofNanoseconds: -second) == "1969-12-31T23:59:59Z")
    }
}
