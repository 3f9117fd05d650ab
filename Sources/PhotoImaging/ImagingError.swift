import SystemKit

/// Why an image could not be decoded, encoded or thumbnailed. Messages name the file's
/// problem, never its pixels or metadata values.
public enum ImagingError: Error, Hashable, Sendable {
    /// The file's format has no decoder here (GIF, a video without an embedded picture, ...).
    case unsupportedFormat(String)
    /// The decoder refused the bytes: truncated, corrupt or hostile.
    case malformed(String)
    /// The image claims dimensions beyond what photofs will decode.
    case tooLarge(width: Int, height: Int)
    /// An encoder failed (out of memory, an invalid parameter).
    case encodeFailed(String)
    /// The file could not be read or the cache could not be written (errno).
    case io(path: String, errno: Errno)
    /// The decoder process died on this file (a crash in a C library), by signal or status.
    case workerCrashed(String)
    /// The decoder process did not answer within its time limit and was killed.
    case timedOut(seconds: Double)
    /// The decoder process could not be started.
    case workerUnavailable(String)
}

extension ImagingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unsupportedFormat(let what): "no decoder for \(what)"
        case .malformed(let why): "malformed image: \(why)"
        case .tooLarge(let width, let height): "image too large to decode (\(width)x\(height))"
        case .encodeFailed(let why): "encoding failed: \(why)"
        case .io(let path, let code): "\(path): \(code)"
        case .workerCrashed(let how): "the decoder process died (\(how))"
        case .timedOut(let seconds): "the decoder took longer than \(Int(seconds)) s and was stopped"
        case .workerUnavailable(let why): "cannot start the decoder process: \(why)"
        }
    }
}
