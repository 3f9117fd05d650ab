import SystemKit

/// Why the view layer refused or failed a request: a closed set, which the FUSE adapter
/// turns into an errno in one table and the in-process callers (tests, tools) match on.
public enum ViewLayerError: Error, Hashable, Sendable {
    /// Not there, or not visible to this caller: a refusal reveals nothing (ENOENT).
    case notFound
    /// The caller may not do this: a stranger, a non-owner on `.picker`, a read through a
    /// descriptor whose asset was revoked (EACCES).
    case permissionDenied
    /// A picker command the caller may not run (EPERM).
    case notPermitted
    /// Everything but `.picker` and the request files is read-only (EROFS).
    case readOnly
    case notDirectory
    case isDirectory
    /// The source file changed or no longer matches the catalog (ESTALE).
    case stale
    /// Malformed input: a picker write that does not parse, a bad offset (EINVAL).
    case invalidArgument
    /// A selection limit would be exceeded, or a pick request has no room left (EDQUOT).
    case quotaExceeded
    /// A picker command would create what already exists (EEXIST).
    case alreadyExists
    /// The app already has a pending pick request (EBUSY).
    case busy
    /// A non-blocking read of a request that is not settled yet (EAGAIN).
    case wouldBlock
    /// A `.picker` write the kernel may have split into several requests (EFBIG).
    case writeTooLarge
    /// The catalog could not persist a picker write: nothing changed (EIO).
    case notSaved
    /// The operation is deliberately not implemented (the kernel stops asking, ENOSYS).
    case notImplemented
    /// A compatible JPEG (or another representation) could not be made or kept: why (EIO,
    /// logged; never metadata values).
    case representationUnavailable(String)
    /// A file's redaction plan could not be read from where it is stored: why (EIO, logged;
    /// the read serves nothing).
    case planUnavailable(String)
    /// A system call on the library failed with this errno.
    case system(errno: Errno, call: String)
    /// A bug or an impossible state (EIO, logged).
    case unexpected(String)

    /// The refusal a picker error is reported as.
    public init(_ kind: PickerErrnoKind) {
        switch kind {
        case .invalid: self = .invalidArgument
        case .notFound: self = .notFound
        case .notPermitted: self = .notPermitted
        case .quotaExceeded: self = .quotaExceeded
        case .accessDenied: self = .permissionDenied
        case .alreadyExists: self = .alreadyExists
        }
    }
}
