import PhotoCore
import SystemKit

/// The one table from the view layer's errors to the errnos the kernel (and the picker
/// socket's CLI callers) get; anything unexpected becomes EIO and is logged by the
/// dispatcher. The README's errno lists for `.picker` and the request files are this table.
extension ViewLayerError {
    /// The errno sent to the kernel.
    public var code: Errno {
        switch self {
        case .notFound: .noSuchFileOrDirectory
        case .permissionDenied: .permissionDenied
        case .notPermitted: .notPermitted
        case .readOnly: .readOnlyFileSystem
        case .notDirectory: .notDirectory
        case .isDirectory: .isDirectory
        case .stale: .stale
        case .invalidArgument: .invalidArgument
        case .quotaExceeded: .quotaExceeded
        case .alreadyExists: .fileExists
        case .busy: .busy
        case .wouldBlock: .resourceTemporarilyUnavailable
        case .writeTooLarge: .fileTooLarge
        case .notSaved: .ioError
        case .notImplemented: .noFunction
        case .representationUnavailable: .ioError
        case .planUnavailable: .ioError
        case .system(let code, _): code.rawValue == 0 ? .ioError : code
        case .unexpected: .ioError
        }
    }

    /// The errno sent to the kernel, as the number FUSE replies and the picker socket carry.
    public var errno: Int32 { code.rawValue }

    /// Whether the failure should be logged (it says something about the daemon or the library).
    var isWorthLogging: Bool {
        switch self {
        case .unexpected, .representationUnavailable, .planUnavailable: true
        case .system(let code, _): code != .noSuchFileOrDirectory
        default: false
        }
    }
}
