import Foundation
import MediaFormats
import PhotoCore
import Testing

@testable import PickerServer

/// The grid's compact list and the newest-first order of what a picker offers.
@Suite("Picker list")
struct PickerListTests {
    func asset(_ number: UInt64, _ year: Int, _ month: Int, _ day: Int, hour: Int = 12) -> Asset {
        PickerQueryTests.asset(number, "p\(number).jpg", date: CaptureDate(year: year, month: month, day: day, hour: hour))
    }

    @Test func idsAreWrittenOneAfterAnotherAndDaysAsRuns() throws {
        let assets = [asset(1, 2024, 5, 2), asset(2, 2024, 5, 2), asset(3, 2024, 5, 1), asset(4, 2023, 12, 31), asset(5, 2023, 12, 31)]
        let bytes = PickerList.json(assets)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(object["count"] as? Int == 5)
        let ids = try #require(object["ids"] as? String)
        #expect(ids == assets.map(\.id.rawValue).joined())
        #expect(ids.count == 5 * AssetID.length)
        #expect(object["days"] as? [Int] == [20_240_502, 2, 20_240_501, 1, 20_231_231, 2])
        let empty = try #require(try JSONSerialization.jsonObject(with: Data(PickerList.json([Asset]()))) as? [String: Any])
        #expect(empty["count"] as? Int == 0)
        #expect(empty["ids"] as? String == "")
        #expect(empty["days"] as? [Int] == [])
    }

    @Test func candidatesAreNewestFirstAndEqualDatesKeepTheirOrder() {
        let assets = [
            asset(1, 2020, 1, 1), asset(2, 2024, 5, 2), asset(3, 2020, 1, 1), asset(4, 2024, 5, 2, hour: 13), asset(5, 2022, 7, 7),
        ]
        #expect(PickerSetup.newestFirst(assets).map(\.inode) == [4, 2, 5, 1, 3])
    }
}
