import Foundation
import Glibc
import PhotoCatalog
import PhotoCore
import TestSupport

/// How the access-log tests read the log: through `photofs log --json`, as a user would,
/// and the `access_log` table itself, row by row with SQLite's own type of each value.
enum AccessLogReading {
    /// One entry of `photofs log --json`.
    struct Entry: Hashable {
        let app: String
        let asset: String
        let day: String
        let reads: Int
    }

    /// `photofs log --json [APP]` (with `arguments`); the raw text and the entries.
    static func log(catalog: String, _ arguments: [String] = []) throws -> (text: String, entries: [Entry]) {
        let result = run([DaemonProcess.binary, "log", "--json", "--catalog", catalog] + arguments)
        guard result.status == 0, let start = result.output.firstIndex(of: "[") else {
            throw IntegrationLibrary.SetupFailure(description: "photofs log failed (\(result.status)): \(result.output)")
        }
        let text = String(result.output[start...])
        let rows = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        let entries = rows.map { row in
            Entry(
                app: row["app"] as? String ?? "", asset: row["asset"] as? String ?? "", day: row["day"] as? String ?? "",
                reads: row["reads"] as? Int ?? 0)
        }
        return (text, entries)
    }

    /// The log once `done` holds for it (polled for up to `timeout` seconds: the daemon
    /// writes about once a second).
    static func waitForLog(catalog: String, timeout: Double = 15, until done: ([Entry]) -> Bool) throws -> [Entry] {
        var entries = try log(catalog: catalog).entries
        var waited = 0.0
        while !done(entries) && waited < timeout {
            usleep(100_000)
            waited += 0.1
            entries = try log(catalog: catalog).entries
        }
        return entries
    }

    /// Today as `YYYY-MM-DD` (UTC).
    static var today: String {
        UTCDay.text(of: UTCDay.day(ofNanoseconds: Int64(Date().timeIntervalSince1970 * 1_000_000_000)))
    }

    /// Adds entries straight to the catalog (while no daemon runs): earlier days of history
    /// that a test cannot wait for. `daysAgo` counts back from today.
    static func addHistory(catalog: String, _ rows: [(app: String, asset: String, daysAgo: Int)]) throws {
        let opened = try Catalog.open(at: catalog)
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        let entries = rows.map { row in
            let time = now - Int64(row.daysAgo) * 86_400 * 1_000_000_000
            return AccessLogEntry(
                app: row.app, asset: AssetID(row.asset)!, day: UTCDay.day(ofNanoseconds: time), firstReadNanoseconds: time,
                lastReadNanoseconds: time, reads: 1)
        }
        try opened.addAccessLog(entries)
    }

    /// Every value of the `access_log` table with SQLite's type of it (`typeof`), one row a
    /// line, read with Python's sqlite3 module (an independent reader); nil without python3.
    static func tableDump(catalog: String) -> String? {
        let script = """
            import sqlite3, sys
            c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            for row in c.execute("SELECT * FROM access_log"):
                print(" ".join("%s:%s" % (type(v).__name__, v) for v in row))
            """
        let result = run(["/usr/bin/python3", "-c", script, catalog])
        return result.status == 0 ? result.output : nil
    }

    /// The bytes of a fresh SQLite file holding only a copy of `access_log` (so that the
    /// assets table, which keeps coordinates by design, is not scanned with it).
    static func tableBytes(catalog: String, scratch: String) -> [UInt8]? {
        let script = """
            import sqlite3, sys
            c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            c.execute("ATTACH ? AS copy", (sys.argv[2],))
            c.execute("CREATE TABLE copy.access_log AS SELECT * FROM main.access_log")
            c.commit()
            """
        unlink(scratch)
        guard run(["/usr/bin/python3", "-c", script, catalog, scratch]).status == 0 else { return nil }
        defer { unlink(scratch) }
        return FileManager.default.contents(atPath: scratch).map { Array($0) }
    }

    /// Whether `bytes` hold `value` as an 8-byte IEEE double in either byte order (SQLite
    /// stores REAL big-endian).
    static func containsDouble(_ bytes: [UInt8], _ value: Double) -> Bool {
        let big = withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init)
        let little = withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
        guard bytes.count >= 8 else { return false }
        for start in 0...(bytes.count - 8) where bytes[start] == big[0] || bytes[start] == little[0] {
            let window = bytes[start..<(start + 8)]
            if window.elementsEqual(big) || window.elementsEqual(little) { return true }
        }
        return false
    }
}

extension AccessLogReading {
    /// The UTC day `days` before today as `YYYY-MM-DD`.
    static func daysBack(_ days: Int) -> String {
        UTCDay.text(of: UTCDay.day(ofNanoseconds: Int64(Date().timeIntervalSince1970 * 1_000_000_000)) - days)
    }
}
