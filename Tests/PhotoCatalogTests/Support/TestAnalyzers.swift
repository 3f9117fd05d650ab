import Glibc
import PhotoCore
import Synchronization

/// Tiny JPEGs made in code: SOI, a comment that makes each one unique, a frame header with
/// the given size, a scan and EOI. Enough for magic-byte detection and the container walker.
enum TinyJPEG {
    static func bytes(comment: String, width: Int = 16, height: Int = 8) -> [UInt8] {
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
struct CoreAnalyzer: AssetAnalyzing {
    func analyze(absolutePath: [UInt8]) throws(AnalysisError) -> AssetAnalysis {
        let fd = FileOps.cString(absolutePath) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .unreadable(errno: errno) }
        close(fd)
        guard let bytes = FileOps.read(absolutePath) else { throw .unreadable(errno: errno) }
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
final class CountingAnalyzer: AssetAnalyzing {
    let inner: any AssetAnalyzing
    let calls = Mutex<[[UInt8]]>([])

    init(_ inner: any AssetAnalyzing) { self.inner = inner }

    func analyze(absolutePath: [UInt8]) throws(AnalysisError) -> AssetAnalysis {
        calls.withLock { $0.append(absolutePath) }
        return try inner.analyze(absolutePath: absolutePath)
    }

    var count: Int { calls.withLock { $0.count } }

    func reset() { calls.withLock { $0.removeAll() } }
}
