import MediaFormats
import SystemKit

/// One job for the decoder process, and its answer. Both travel as length-prefixed
/// binary frames over a socket (see `FrameCodec`).
public enum DecoderRequest: Equatable, Sendable {
    /// A PNG thumbnail of `path` (file name bytes) fitted into `box`, carrying `text` as tEXt chunks.
    case thumbnail(path: [UInt8], box: Int, text: [TextPair])
    /// The same of the file at `path` below the library folder `root`, opened like the
    /// mount opens it (`SourceOpener`: below the root, through no symbolic link) and only
    /// while it is the version `stamp` describes.
    case thumbnailBelow(root: [UInt8], path: [UInt8], stamp: FileStamp, box: Int, text: [TextPair])
    /// A JPEG of `path` at `quality` (1...100), its EXIF carried over under `location`.
    case compatibleJPEG(path: [UInt8], quality: Int, location: LocationPolicy)
    /// The same made from a file's `bytes`, which the caller read from a descriptor it
    /// checked (the mount's sources are opened without following links).
    case compatibleJPEGData(bytes: [UInt8], quality: Int, location: LocationPolicy)
}

/// A PNG text chunk's key and value.
public struct TextPair: Equatable, Sendable {
    public var key: String
    public var value: String
}

/// What the decoder process answered.
public enum DecoderResponse: Equatable, Sendable {
    case image(bytes: [UInt8], origin: ThumbnailOrigin)
    case failed(ImagingError)
}

/// Encodes and decodes request and response payloads. Every length read from a frame is
/// checked, so a confused peer gives `nil`, never a trap.
enum FrameCodec {
    /// The largest frame either side accepts (a 512 px PNG or a large JPEG fit easily).
    static let maxFrame = 256 << 20

    static func encode(_ request: DecoderRequest) -> [UInt8] {
        var out = FrameWriter()
        switch request {
        case .thumbnail(let path, let box, let text):
            out.u8(1)
            out.blob(path)
            out.u32(UInt32(clamping: box))
            out.u32(UInt32(text.count))
            for pair in text {
                out.string(pair.key)
                out.string(pair.value)
            }
        case .compatibleJPEG(let path, let quality, let location):
            out.u8(2)
            out.blob(path)
            out.u32(UInt32(clamping: quality))
            out.string(location.rawValue)
        case .compatibleJPEGData(let bytes, let quality, let location):
            out.u8(3)
            out.u32(UInt32(clamping: quality))
            out.string(location.rawValue)
            out.blob(bytes)
        case .thumbnailBelow(let root, let path, let stamp, let box, let text):
            out.u8(4)
            out.blob(root)
            out.blob(path)
            out.u64(UInt64(bitPattern: stamp.size))
            out.u64(stamp.inode)
            out.u64(UInt64(bitPattern: stamp.mtimeNanoseconds))
            out.u64(UInt64(bitPattern: stamp.ctimeNanoseconds))
            out.u32(UInt32(clamping: box))
            out.u32(UInt32(text.count))
            for pair in text {
                out.string(pair.key)
                out.string(pair.value)
            }
        }
        return out.bytes
    }

    static func decodeRequest(_ bytes: [UInt8]) -> DecoderRequest? {
        var reader = FrameReader(bytes)
        switch reader.u8() {
        case 1:
            guard let path = reader.blob(), let box = reader.u32(), let count = reader.u32(), count <= 64 else { return nil }
            var text: [TextPair] = []
            for _ in 0..<count {
                guard let key = reader.string(), let value = reader.string() else { return nil }
                text.append(TextPair(key: key, value: value))
            }
            return reader.atEnd ? .thumbnail(path: path, box: Int(box), text: text) : nil
        case 2:
            guard let path = reader.blob(), let quality = reader.u32(),
                let location = reader.string().flatMap(LocationPolicy.init(rawValue:)),
                reader.atEnd
            else { return nil }
            return .compatibleJPEG(path: path, quality: Int(quality), location: location)
        case 3:
            guard let quality = reader.u32(), let location = reader.string().flatMap(LocationPolicy.init(rawValue:)),
                let bytes = reader.blob(), reader.atEnd
            else { return nil }
            return .compatibleJPEGData(bytes: bytes, quality: Int(quality), location: location)
        case 4:
            guard let root = reader.blob(), let path = reader.blob(), let size = reader.u64(), let inode = reader.u64(),
                let mtime = reader.u64(), let ctime = reader.u64(), let box = reader.u32(), let count = reader.u32(), count <= 64
            else { return nil }
            var text: [TextPair] = []
            for _ in 0..<count {
                guard let key = reader.string(), let value = reader.string() else { return nil }
                text.append(TextPair(key: key, value: value))
            }
            let stamp = FileStamp(
                size: Int64(bitPattern: size), inode: inode, mtimeNanoseconds: Int64(bitPattern: mtime),
                ctimeNanoseconds: Int64(bitPattern: ctime))
            return reader.atEnd ? .thumbnailBelow(root: root, path: path, stamp: stamp, box: Int(box), text: text) : nil
        default:
            return nil
        }
    }

    static func encode(_ response: DecoderResponse) -> [UInt8] {
        var out = FrameWriter()
        switch response {
        case .image(let bytes, let origin):
            out.u8(0)
            out.u8(origin.rawValue)
            out.bytes += bytes
        case .failed(let error):
            out.u8(1)
            switch error {
            case .unsupportedFormat(let text): out.u8(1); out.string(text)
            case .malformed(let text): out.u8(2); out.string(text)
            case .tooLarge(let w, let h): out.u8(3); out.u32(UInt32(clamping: w)); out.u32(UInt32(clamping: h))
            case .encodeFailed(let text): out.u8(4); out.string(text)
            case .io(let path, let code): out.u8(5); out.string(path); out.u32(UInt32(bitPattern: code.rawValue))
            case .workerCrashed(let text): out.u8(6); out.string(text)
            case .timedOut(let seconds): out.u8(7); out.u32(UInt32(clamping: Int(seconds)))
            case .workerUnavailable(let text): out.u8(8); out.string(text)
            }
        }
        return out.bytes
    }

    static func decodeResponse(_ bytes: [UInt8]) -> DecoderResponse? {
        var reader = FrameReader(bytes)
        switch reader.u8() {
        case 0:
            guard let raw = reader.u8(), let origin = ThumbnailOrigin(rawValue: raw) else { return nil }
            return .image(bytes: reader.rest(), origin: origin)
        case 1:
            let error: ImagingError?
            switch reader.u8() {
            case 1: error = reader.string().map { .unsupportedFormat($0) }
            case 2: error = reader.string().map { .malformed($0) }
            case 3:
                guard let w = reader.u32(), let h = reader.u32() else { return nil }
                error = .tooLarge(width: Int(w), height: Int(h))
            case 4: error = reader.string().map { .encodeFailed($0) }
            case 5:
                guard let path = reader.string(), let code = reader.u32() else { return nil }
                error = .io(path: path, errno: Errno(rawValue: Int32(bitPattern: code)))
            case 6: error = reader.string().map { .workerCrashed($0) }
            case 7: error = reader.u32().map { .timedOut(seconds: Double($0)) }
            case 8: error = reader.string().map { .workerUnavailable($0) }
            default: error = nil
            }
            guard let error, reader.atEnd else { return nil }
            return .failed(error)
        default:
            return nil
        }
    }
}

/// Appends big-endian integers and length-prefixed strings.
struct FrameWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    mutating func u64(_ value: UInt64) {
        u32(UInt32(value >> 32))
        u32(UInt32(value & 0xFFFF_FFFF))
    }

    mutating func string(_ text: String) { blob(Array(text.utf8)) }

    mutating func blob(_ data: [UInt8]) {
        u32(UInt32(data.count))
        bytes += data
    }
}

/// Reads what `FrameWriter` wrote; nil once anything is missing.
struct FrameReader {
    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { at == bytes.count }

    mutating func u8() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func u32() -> UInt32? {
        guard bytes.count - at >= 4 else { return nil }
        defer { at += 4 }
        return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    mutating func u64() -> UInt64? {
        guard let high = u32(), let low = u32() else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    mutating func string() -> String? { blob().map { String(decoding: $0, as: UTF8.self) } }

    mutating func blob() -> [UInt8]? {
        guard let length = u32(), Int(length) <= bytes.count - at else { return nil }
        defer { at += Int(length) }
        return Array(bytes[at..<(at + Int(length))])
    }

    mutating func rest() -> [UInt8] {
        defer { at = bytes.count }
        return Array(bytes[at...])
    }
}
