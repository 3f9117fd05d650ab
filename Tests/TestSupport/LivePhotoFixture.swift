import Foundation

/// Makes Live Photo pairs, RAW+JPEG pairs from the shared corpus: a still with Apple's
/// content identifier written by exiftool (`Apple:MediaGroupUUID`, maker note tag 0x0011),
/// and a QuickTime movie given the `mdta` key `com.apple.quicktime.content.identifier`
/// (exiftool 12 cannot write that key, so the `meta` atom is built here as iOS writes it).
public enum LivePhotoFixture {
    public static let still = "exif-samples/IMG_5195.HEIC"
    public static let movie = "exiftool/QuickTime.mov"
    public static let raw = "exiftool/Nikon.nef"
    public static let jpeg = "exif-samples/Canon_40D.jpg"

    public struct SetupFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `folder/NAME.HEIC` and `folder/NAME.MOV` sharing `identifier`.
    public static func writeLivePair(corpus: String, folder: String, name: String, identifier: String) throws {
        guard let exiftool = ExternalTools.exiftool else { throw SetupFailure(description: "exiftool is missing") }
        let stillPath = folder + "/" + name + ".HEIC"
        try copy(corpus + "/" + still, to: stillPath)
        let written = try ExternalTools.run(exiftool, ["-q", "-overwrite_original", "-Apple:MediaGroupUUID=\(identifier)", stillPath])
        guard written.status == 0 else { throw SetupFailure(description: "exiftool: \(written.stderr)") }
        let source = try Data(contentsOf: URL(fileURLWithPath: corpus + "/" + movie))
        let made = try movieWithIdentifier([UInt8](source), identifier: identifier)
        guard FileManager.default.createFile(atPath: folder + "/" + name + ".MOV", contents: Data(made)) else {
            throw SetupFailure(description: "cannot write the movie")
        }
    }

    /// Writes `folder/NAME.NEF` and `folder/NAME.JPG`.
    public static func writeRawPair(corpus: String, folder: String, name: String) throws {
        try copy(corpus + "/" + raw, to: folder + "/" + name + ".NEF")
        try copy(corpus + "/" + jpeg, to: folder + "/" + name + ".JPG")
    }

    static func copy(_ from: String, to path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: from))
        guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o644]) else {
            throw SetupFailure(description: "cannot write \(path)")
        }
    }

    /// `movie` with a QuickTime `meta` atom (handler `mdta`, one key, one `ilst` item) added
    /// at the end of its `moov`. The corpus movie has an empty `mdat` after `moov`, so no
    /// sample offset points at bytes that move.
    public static func movieWithIdentifier(_ movie: [UInt8], identifier: String) throws -> [UInt8] {
        var offset = 0
        while offset + 8 <= movie.count {
            let size = Int(be32(movie, offset))
            guard size >= 8, offset + size <= movie.count else { break }
            if Array(movie[offset + 4..<offset + 8]) == Array("moov".utf8) {
                let meta = metaAtom(identifier: identifier)
                var result = Array(movie[..<offset])
                result += u32(UInt32(size + meta.count)) + Array("moov".utf8)
                result += movie[offset + 8..<offset + size]
                result += meta
                result += movie[(offset + size)...]
                return result
            }
            offset += size
        }
        throw SetupFailure(description: "the movie has no moov atom")
    }

    static func metaAtom(identifier: String) -> [UInt8] {
        let key = Array("com.apple.quicktime.content.identifier".utf8)
        let hdlr = atom("hdlr", [0, 0, 0, 0] + [0, 0, 0, 0] + Array("mdta".utf8) + [UInt8](repeating: 0, count: 12) + [0])
        let keys = atom("keys", [0, 0, 0, 0] + u32(1) + u32(UInt32(8 + key.count)) + Array("mdta".utf8) + key)
        let data = atom("data", u32(1) + u32(0) + Array(identifier.utf8))
        let item = u32(UInt32(8 + data.count)) + u32(1) + data
        return atom("meta", hdlr + keys + atom("ilst", item))
    }

    static func atom(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func u32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
