/// Reads an XMP sidecar (`IMG.xmp`, `IMG.jpg.xmp`, as darktable, digiKam and Lightroom
/// write them) for the location model: the same scan as a packet inside a file.
public enum XMPSidecar {
    /// The largest sidecar read; a larger one counts as placing the photo (fail closed).
    public static let maxLength = 4 << 20

    /// Whether the sidecar's text places the photo (a coordinate, a place name, or a
    /// packet the scanner cannot read with certainty).
    public static func placesPhoto(_ text: [UInt8]) -> Bool {
        guard text.count <= maxLength else { return true }
        return XMPLocationScanner(text).foundLocation
    }

    /// The sidecar paths a photo at `path` may have, most specific first: the file name
    /// with `.xmp` added, then with its extension replaced by `.xmp`.
    public static func candidates(for path: [UInt8]) -> [[UInt8]] {
        let slash = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        var result = [path + Array(".xmp".utf8)]
        if let dot = path[slash...].lastIndex(of: UInt8(ascii: ".")), dot > slash {
            result.append(Array(path[..<dot]) + Array(".xmp".utf8))
        }
        return result
    }
}
