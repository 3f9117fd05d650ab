import Glibc
import MediaFormats
import PhotoCore
import PhotoHashing
import Synchronization
import SystemKit

/// Tiny JPEGs made in code: SOI, a comment that makes each one unique, a frame header with
/// the given size, a scan and EOI. Enough for magic-byte detection and the container walker.
public enum TinyJPEG {
    public static func bytes(comment: String, width: Int = 16, height: Int = 8) -> [UInt8] {
        func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] { [0xFF, marker] + be16(payload.count + 2) + payload }
        return [0xFF, 0xD8] + segment(0xFE, Array(comment.utf8)) + segment(0xC0, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
            + segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0x12, 0x34, 0xFF, 0xD9]
    }
}

/// An analyzer built only from PhotoCore: reads the whole file, decides the format from
/// magic bytes, walks the container for dimensions, plans redaction and fingerprints the
/// content with SHA-256. A stand-in for PhotoMetadata's libexif analyzer where a test is
/// about the catalog, not about EXIF.
public struct CoreAnalyzer: AssetAnalyzing {
    public func analyze(absolutePath: [UInt8]) throws(AnalysisError) -> AssetAnalysis {
        let fd = FileOps.cString(absolutePath) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .unreadable(errno: .current) }
        close(fd)
        guard let bytes = FileOps.read(absolutePath) else { throw .unreadable(errno: .current) }
        let source = MemoryByteSource(bytes)
        guard let format = MediaSniffer.format(of: source) else { throw .notMedia }
        let layout = ContainerWalker.layout(of: source, format: format)
        let metadata = MediaMetadata(format: format, width: layout.pixelWidth, height: layout.pixelHeight, problems: layout.problems)
        return AssetAnalysis(
            fingerprint: AssetFingerprint(of: bytes).hex, metadata: metadata,
            redaction: RedactionPlanner.plans(layout: layout, source: source))
    }
}

/// Wraps an analyzer and counts calls, per path, so tests can prove what was (not) read.
public final class CountingAnalyzer: AssetAnalyzing {
    public let inner: any AssetAnalyzing
    public let calls = Mutex<[[UInt8]]>([])

    public init(_ inner: any AssetAnalyzing) { self.inner = inner }

    public func analyze(absolutePath: [UInt8]) throws(AnalysisError) -> AssetAnalysis {
        calls.withLock { $0.append(absolutePath) }
        return try inner.analyze(absolutePath: absolutePath)
    }

    public var count: Int { calls.withLock { $0.count } }

    public func reset() { calls.withLock { $0.removeAll() } }
}

extension TinyJPEG {
    /// A tiny JPEG with an EXIF APP1 block (little-endian TIFF): IFD0 Make and Model and
    /// an Exif IFD with DateTimeOriginal ("YYYY:MM:DD HH:MM:SS").
    public static func withExif(comment: String, make: String, model: String, dateTimeOriginal: String) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
        let makeBytes = Array(make.utf8) + [0]
        let modelBytes = Array(model.utf8) + [0]
        let dateBytes = Array(dateTimeOriginal.utf8) + [0]
        // Layout: header(8) IFD0(2+3*12+4) ExifIFD(2+1*12+4) then values.
        let ifd0 = 8
        let exifIFD = ifd0 + 2 + 3 * 12 + 4
        let values = exifIFD + 2 + 12 + 4
        let makeAt = values
        let modelAt = makeAt + makeBytes.count
        let dateAt = modelAt + modelBytes.count
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(ifd0)
        tiff += le16(3)
        tiff += le16(0x010F) + le16(2) + le32(makeBytes.count) + le32(makeAt)
        tiff += le16(0x0110) + le16(2) + le32(modelBytes.count) + le32(modelAt)
        tiff += le16(0x8769) + le16(4) + le32(1) + le32(exifIFD)
        tiff += le32(0)
        tiff += le16(1)
        tiff += le16(0x9003) + le16(2) + le32(dateBytes.count) + le32(dateAt)
        tiff += le32(0)
        tiff += makeBytes + modelBytes + dateBytes
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        let plain = bytes(comment: comment)
        // SOI, then APP1, then the rest of the plain JPEG.
        return [0xFF, 0xD8, 0xFF, 0xE1] + be16(app1.count + 2) + app1 + plain.dropFirst(2)
    }
}
