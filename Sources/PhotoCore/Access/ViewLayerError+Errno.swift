import SystemKit

/// The one table from the view layer's errors to the errnos the kernel, the picker socket's
/// CLI callers and the CLI's own catalog writes get. The README's errno lists for `.picker`
/// and the request files are this table.
extension ViewLayerError {
    /// The errno the caller gets.
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

    /// The errno as the number FUSE replies and the picker socket carry.
    public var errno: Int32 { code.rawValue }
}
