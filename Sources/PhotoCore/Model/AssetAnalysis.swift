import MediaFormats
import SystemKit

/// Everything the indexer learns by reading one file: computed by an `AssetAnalyzing`
/// (PhotoMetadata's libexif-backed analyzer), stored by the catalog.
public struct AssetAnalysis: Sendable {
    /// The content fingerprint the asset id derives from (64 hex digits of a SHA-256 over
    /// the size and the first and last 64 KiB, see `AssetFingerprint`).
    public var fingerprint: String
    public var metadata: MediaMetadata
    public var redaction: RedactionPlans
    /// The Apple content identifier that pairs a Live Photo's still and video (see
    /// `LivePhotoIdentifier`); nil for every other file.
    public var contentIdentifier: String?

    public init(fingerprint: String, metadata: MediaMetadata, redaction: RedactionPlans, contentIdentifier: String? = nil) {
        self.fingerprint = fingerprint
        self.metadata = metadata
        self.redaction = redaction
        self.contentIdentifier = contentIdentifier
    }
}

/// Why a file is not an asset or could not be read.
public enum AnalysisError: Error, Hashable, Sendable {
    /// The magic bytes match no supported photo or video format.
    case notMedia
    /// The file could not be opened or read (errno).
    case unreadable(errno: Errno)
    /// Not a regular file: nothing to read (a device, a pipe) or not followed (a link).
    case notRegularFile(SpecialFile)
}

/// A directory entry that is neither a regular file nor a folder.
public enum SpecialFile: String, Hashable, Sendable, CaseIterable {
    case symbolicLink, fifo, socket, characterDevice, blockDevice

    /// What `photofs show` says about it.
    public var description: String {
        switch self {
        case .symbolicLink: "symbolic link, not followed"
        case .fifo: "FIFO (named pipe)"
        case .socket: "socket"
        case .characterDevice: "character device"
        case .blockDevice: "block device"
        }
    }
}

/// Reads one file of the library and says what it is. Injected into the indexer so that
/// the catalog never depends on libexif. Must be safe to call from several threads.
public protocol AssetAnalyzing: Sendable {
    /// Analyses the file at an absolute path (bytes, since names may not be UTF-8).
    /// Never crashes on bad content: a file it cannot fully parse still yields an
    /// analysis, with the reasons in `metadata.problems`.
    func analyze(absolutePath: [UInt8]) throws(AnalysisError) -> AssetAnalysis
    /// The same, told whether the file's folder holds any name ending in `.xmp` (a walk
    /// that listed the folder knows): without one, no sidecar can place the file and none
    /// is looked for.
    func analyze(absolutePath: [UInt8], folderHasXMP: Bool) throws(AnalysisError) -> AssetAnalysis
}

extension AssetAnalyzing {
    public func analyze(absolutePath: [UInt8], folderHasXMP: Bool) throws(AnalysisError) -> AssetAnalysis {
        try analyze(absolutePath: absolutePath)
    }
}

extension AnalysisError: CustomStringConvertible {
    /// One phrase for `photofs show` and index summaries.
    public var description: String {
        switch self {
        case .notMedia: "not a photo or video format photofs knows (decided from the file's first bytes)"
        case .unreadable(let errno): "the file could not be read (errno \(errno.rawValue))"
        case .notRegularFile(let kind): "not a regular file: \(kind.description)"
        }
    }
}
