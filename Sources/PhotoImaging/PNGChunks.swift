import MediaFormats

/// Reads and adds PNG `tEXt` chunks, for the thumbnail standard's `Thumb::URI` and
/// `Thumb::MTime` keys. Works on encoded bytes; never decodes pixels.
public enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `png` with one `tEXt` chunk per pair right after IHDR and every other ancillary
    /// chunk (sRGB, gAMA, text, EXIF, times) left out, so that the result carries the
    /// given text and pixels only. Keys must be Latin-1 keywords (1-79 bytes).
    public static func addingText(_ pairs: [(key: String, value: String)], to png: [UInt8]) throws(ImagingError) -> [UInt8] {
        guard png.count > 33, Array(png[0..<8]) == signature, Array(png[12..<16]) == Array("IHDR".utf8) else {
            throw .encodeFailed("PNG: no IHDR to add text after")
        }
        var out = signature
        var at = 8
        var wroteText = false
        while at + 12 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            guard length >= 0, length <= png.count - at - 12 else { throw .encodeFailed("PNG: chunk runs past the end") }
            let critical = png[at + 4] & 0x20 == 0
            if critical { out += png[at..<(at + 12 + length)] }
            if !wroteText {
                wroteText = true
                for (key, value) in pairs { out += try textChunk(key: key, value: value) }
            }
            at += 12 + length
        }
        return out
    }

    private static func textChunk(key: String, value: String) throws(ImagingError) -> [UInt8] {
        let keyBytes = Array(key.utf8)
        guard (1...79).contains(keyBytes.count), !keyBytes.contains(0), !value.utf8.contains(0) else {
            throw .encodeFailed("PNG: bad text key")
        }
        let typed = Array("tEXt".utf8) + keyBytes + [0] + Array(value.utf8)
        return bigEndian(UInt32(typed.count - 4)) + typed + bigEndian(CRC32.checksum(typed))
    }

    /// The `tEXt` chunks of `png` before its image data, by key (a malformed file gives
    /// what could be read). Reads at most `limit` bytes of chunks.
    public static func text(of png: [UInt8], limit: Int = 1 << 20) -> [String: String] {
        var result: [String: String] = [:]
        guard png.count >= 8, Array(png[0..<8]) == signature else { return result }
        var at = 8
        while at + 12 <= min(png.count, limit) {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            guard length >= 0, length <= png.count - at - 12 else { break }
            if type == "IDAT" || type == "IEND" { break }
            if type == "tEXt" {
                let data = png[(at + 8)..<(at + 8 + length)]
                if let nul = data.firstIndex(of: 0) {
                    let key = String(decoding: data[data.startIndex..<nul], as: UTF8.self)
                    result[key] = String(decoding: data[(nul + 1)...], as: UTF8.self)
                }
            }
            at += 12 + length
        }
        return result
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
