import Glibc

extension FileSystem {
    /// Asks the file system holding `path` for its statistics (`statvfs`) and says only
    /// whether it answered. Never answered from the kernel's caches: a FUSE mount asks its
    /// daemon (a dead one fails with ENOTCONN), and no descriptor is left open in it.
    public static func askFileSystem(at path: String) throws(Errno) {
        var info = statvfs()
        _ = try Syscall.checked { statvfs(path, &info) }
    }
}
