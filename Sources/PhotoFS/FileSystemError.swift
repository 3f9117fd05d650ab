import Glibc

/// Why a FUSE request failed. Translated to an errno in exactly one place (`errno`);
/// anything unexpected becomes EIO and is logged by the dispatcher.
enum FileSystemError: Error, Sendable {
    /// Not there, or not visible to this caller: a refusal reveals nothing.
    case notFound
    /// The caller may not do this (a stranger under `--allow-other`, a non-owner on `.picker`,
    /// or a read on a descriptor whose asset was revoked).
    case accessDenied
    /// Everything but `.picker` is read-only.
    case readOnly
    case notDirectory
    case isDirectory
    /// The source file changed under an open descriptor or no longer matches the catalog.
    case stale
    case invalidArgument
    /// The operation is deliberately not implemented (FLUSH: tells the kernel to stop asking).
    case notImplemented
    /// A system call on the library failed with this errno.
    case system(errno: Int32, call: String)
    /// A control-file command was refused, with the errno the README assigns.
    case refused(errno: Int32)
    /// A bug or an impossible state: answered with EIO and logged.
    case unexpected(String)

    /// The errno sent to the kernel.
    var errno: Int32 {
        switch self {
        case .notFound: ENOENT
        case .accessDenied: EACCES
        case .readOnly: EROFS
        case .notDirectory: ENOTDIR
        case .isDirectory: EISDIR
        case .stale: ESTALE
        case .invalidArgument: EINVAL
        case .notImplemented: ENOSYS
        case .system(let code, _): code == 0 ? EIO : code
        case .refused(let code): code == 0 ? EIO : code
        case .unexpected: EIO
        }
    }

    /// Whether the failure should be logged (it says something about the daemon or the library).
    var isWorthLogging: Bool {
        switch self {
        case .unexpected: true
        case .system(let code, _): code != ENOENT
        default: false
        }
    }
}
