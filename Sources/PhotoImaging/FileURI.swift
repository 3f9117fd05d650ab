/// The `file://` URI of an absolute path, escaped the way GLib's `g_filename_to_uri`
/// escapes it, so that the thumbnail file name (the MD5 of this URI) is the one GNOME,
/// Xfce and other file managers look for.
public enum FileURI {
    /// Bytes left as they are in a path besides ASCII letters and digits.
    private static let unescaped = Set("!$&'()*+,-./:=@_~".utf8)

    /// `file://` followed by the percent-escaped path bytes (upper-case hex).
    public static func of(absolutePath path: [UInt8]) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = Array("file://".utf8)
        for byte in path {
            let isAlnum = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            if isAlnum || unescaped.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
