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
        guard let folder = opendir(path) else { throw .current }
        defer { closedir(folder) }
        var names: [[UInt8]] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        return names
    }
}
