/// The answer of a FileChooser call (`ua{sv}`): the portal's response code and, on
/// success, the chosen files' URIs.
struct PortalResponse {
    /// 0: the person chose; 1: cancelled (also a closed or expired request); 2: failed.
    let code: UInt32
    let uris: [String]

    static let cancelled = PortalResponse(code: 1, uris: [])
    static let failed = PortalResponse(code: 2, uris: [])

    /// Chosen files: `file://` URIs of `names` in the app's directory of the mount, in order.
    static func chosen(_ names: [[UInt8]], app: String, mountpoint: String) -> PortalResponse {
        let directory = Array((mountpoint + "/apps/" + app + "/").utf8)
        return PortalResponse(code: 0, uris: names.map { fileURI(directory + $0) })
    }

    /// `file://` and the path with every byte outside RFC 3986's unreserved set and `/`
    /// percent-encoded (file names may hold any byte but `/` and NUL).
    static func fileURI(_ path: [UInt8]) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = Array("file://".utf8)
        for byte in path {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `(u, a{sv})` to `reply`: the code and, when there are URIs, `uris` as `as`.
    func append(to reply: BusMessage) throws(BusError) {
        try reply.append(code)
        try reply.open("a", "{sv}")
        if code == 0 {
            try reply.open("e", "sv")
            try reply.append("uris")
            try reply.open("v", "as")
            try reply.open("a", "s")
            for uri in uris { try reply.append(uri) }
            try reply.close()
            try reply.close()
            try reply.close()
        }
        try reply.close()
    }
}
