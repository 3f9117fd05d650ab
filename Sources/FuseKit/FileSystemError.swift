import Glibc
import PhotoCore

/// The one table from the view layer's errors to the errnos the kernel (and the picker
/// socket's CLI callers) get; anything unexpected becomes EIO and is logged by the
/// dispatcher. The README's errno lists for `.picker` and the request files are this table.
extension ViewLayerError {
    /// The errno sent to the kernel.
    public var errno: Int32 {
        switch self {
        case .notFound: ENOENT
        case .permissionDenied: EACCES
        case .notPermitted: EPERM
        case .readOnly: EROFS
        case .notDirectory: ENOTDIR
        case .isDirectory: EISDIR
        case .stale: ESTALE
        case .invalidArgument: EINVAL
        case .quotaExceeded: EDQUOT
        case .alreadyExists: EEXIST
        case .busy: EBUSY
        case .wouldBlock: EAGAIN
        case .writeTooLarge: EFBIG
        case .notSaved: EIO
        case .notImplemented: ENOSYS
        case .representationUnavailable: EIO
        case .planUnavailable: EIO
        case .system(let code, _): code == 0 ? EIO : code
        case .unexpected: EIO
        }
    }

    /// Whether the failure should be logged (it says something about the daemon or the library).
    var isWorthLogging: Bool {
        switch self {
        case .unexpected, .representationUnavailable, .planUnavailable: true
        case .system(let code, _): code != ENOENT
        default: false
        }
    }
}
