import PhotoCore

/// The access log as JSON, one encoder for `photofs log --json` and the report page, so
/// both show the same data: an array, newest first, of
/// `{"app","asset","path","day","first_read","last_read","reads"}` (`path` is the
/// asset's library-relative path now, or null when it left the library; times are UTC).
/// Never a coordinate: an entry holds none.
public enum AccessLogJSON {
    public static func encode(_ entries: [AccessLogEntry], paths: [AssetID: String]) -> String {
        var out = "["
        for (index, entry) in entries.enumerated() {
            if index > 0 { out += "," }
            out += "{\"app\":" + JSONText.string(entry.app)
            out += ",\"asset\":\"" + entry.asset.rawValue + "\""
            out += ",\"path\":" + (paths[entry.asset].map(JSONText.string) ?? "null")
            out += ",\"day\":\"" + UTCDay.text(of: entry.day) + "\""
            out += ",\"first_read\":\"" + UTCDay.timestamp(ofNanoseconds: entry.firstReadNanoseconds) + "\""
            out += ",\"last_read\":\"" + UTCDay.timestamp(ofNanoseconds: entry.lastReadNanoseconds) + "\""
            out += ",\"reads\":" + String(entry.reads) + "}"
        }
        return out + "]"
    }
}
