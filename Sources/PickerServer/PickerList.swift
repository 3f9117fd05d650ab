import PhotoCore

/// The grid's list as the page reads it, compact because at 100,000 assets it is the
/// page's first wait: `{"count":N,"ids":"…","days":[DAY,RUN,…]}`, the ids newest first
/// written one after another (each `AssetID.length` hex digits, so no quotes or commas to
/// parse), and their days (`YYYYMMDD`) as runs of equal days.
enum PickerList {
    static func json(_ assets: some Collection<Asset>) -> [UInt8] {
        var ids: [UInt8] = []
        ids.reserveCapacity(assets.underestimatedCount * AssetID.length)
        var days: [UInt8] = []
        var count = 0
        var day = -1
        var run = 0
        func closeRun() {
            guard run > 0 else { return }
            if !days.isEmpty { days.append(UInt8(ascii: ",")) }
            days += Array("\(day),\(run)".utf8)
        }
        for asset in assets {
            count += 1
            ids += asset.id.rawValue.utf8
            let date = asset.effectiveDate
            let next = date.year * 10_000 + date.month * 100 + date.day
            if next == day {
                run += 1
            } else {
                closeRun()
                day = next
                run = 1
            }
        }
        closeRun()
        return Array(#"{"count":\#(count),"ids":""#.utf8) + ids + Array(#"","days":["#.utf8) + days + Array("]}".utf8)
    }
}
