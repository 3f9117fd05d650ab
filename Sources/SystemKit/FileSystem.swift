import Glibc

/// Calls on paths (as opposed to open descriptors): folders, renames, removal, times.
public enum FileSystem {
    /// Makes the folder `path` with `mode`; an existing one is fine when `existingIsFine`.
    public static func makeDirectory(_ path: String, mode: UInt32 = 0o700, existingIsFine: Bool = true) throws(Errno) {
        guard mkdir(path, mode_t(mode)) != 0 else { return }
        let code = Errno.current
        if existingIsFine, code == .fileExists { return }
        throw code
    }

    /// Renames `source` to `target`, replacing `target` (atomic on one file system).
    public static func rename(_ source: String, to target: String) throws(Errno) {
        _ = try Syscall.checked { Glibc.rename(source, target) }
    }

    /// Removes the file (not a folder) at `path`.
    public static func remove(_ path: String) throws(Errno) {
        _ = try Syscall.checked { unlink(path) }
    }

    /// Sets the access and modification times of `path` to now.
    public static func touch(_ path: String) throws(Errno) {
        _ = try Syscall.checked { utimensat(AT_FDCWD, path, nil, 0) }
    }

    /// The names in the folder at `path` (without `.` and `..`), as bytes.
    public static func names(inDirectory path: String) throws(Errno) -> [[UInt8]] {
        try names(inDirectory: Array(path.utf8))
    }

    /// The absolute path of `path` with every symbolic link, `.` and `..` resolved
    /// (`realpath`); nil when some component does not exist.
    public static func realPath(_ path: [UInt8]) -> [UInt8]? {
        guard !path.contains(0) else { return nil }
        guard
            let resolved = (path + [0]).withUnsafeBufferPointer({ buffer in
                buffer.withMemoryRebound(to: CChar.self) { realpath($0.baseAddress, nil) }
            })
        else { return nil }
        defer { free(resolved) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
    }

    /// The current directory; nil when it cannot be named (removed, or too long).
    public static func currentDirectory() -> [UInt8]? {
        guard let cwd = getcwd(nil, 0) else { return nil }
        defer { free(cwd) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(cwd).assumingMemoryBound(to: UInt8.self), count: strlen(cwd)))
    }

    /// What `access` is asked about.
    public enum Access: Sendable {
        case read, write
    }

    /// Whether this process's real user may `access` the file at `path` (`access(2)`).
    public static func isAllowed(_ access: Access, _ path: String) -> Bool {
        Glibc.access(path, access == .read ? R_OK : W_OK) == 0
    }
}
