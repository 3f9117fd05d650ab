import Glibc
import PhotoCore
import PhotoHashing

/// Where the picker socket of a mount lives: in a directory of the mounting user's own
/// (`$XDG_RUNTIME_DIR/photofs`, else `/run/photofs` for root, else `/tmp/photofs-UID`),
/// never inside the mount, named after the mountpoint's real path, so the daemon and the
/// CLI of the same user find the same socket without asking anyone.
enum PickerSocketPath {
    /// The socket directory for `uid` in `environment`.
    static func directory(environment: [String: String], uid: uid_t = getuid()) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), runtime.count < 64 {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/photofs"
        }
        return uid == 0 ? "/run/photofs" : "/tmp/photofs-\(uid)"
    }

    /// The socket of the mount at `mountpoint` (its canonical path bytes).
    static func socket(mountpoint: [UInt8], environment: [String: String]) -> String {
        directory(environment: environment) + "/picker-" + SHA256.hex(SHA256.hash(mountpoint)).prefix(16) + ".sock"
    }

    /// Why `directory` may not hold a picker socket, or nil when it is the caller's own:
    /// a real directory (not a symlink) owned by this uid that no one else may enter.
    static func problem(with directory: String) -> String? {
        var status = stat()
        guard lstat(directory, &status) == 0 else { return "\(directory): \(String(cString: strerror(errno)))" }
        guard status.st_mode & S_IFMT == S_IFDIR else { return "\(directory) is not a directory" }
        guard status.st_uid == getuid() else { return "\(directory) belongs to uid \(status.st_uid), not to uid \(getuid())" }
        guard status.st_mode & 0o077 == 0 else {
            return "\(directory) may be entered by other users (mode \(String(status.st_mode & 0o777, radix: 8)))"
        }
        return nil
    }

    /// Creates the socket directory (0700) when missing, and narrows one of ours that
    /// others may enter; returns why it cannot be used, or nil.
    static func prepare(_ directory: String) -> String? {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            return "cannot create \(directory): \(String(cString: strerror(errno)))"
        }
        var status = stat()
        if lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(), status.st_mode & 0o077 != 0 {
            chmod(directory, mode_t(status.st_mode & 0o700))
        }
        return problem(with: directory)
    }

    /// A `sockaddr_un` for `path`, or nil when the path is too long for one.
    static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        return address
    }

    /// The uid of the process at the other end of a connected socket.
    static func peerUID(_ fd: Int32) -> uid_t? {
        // `struct ucred` (pid, uid, gid; three 32-bit fields) is not in Swift's Glibc module.
        var credentials: [UInt32] = [0, 0, 0]
        var length = socklen_t(12)
        let result = credentials.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length) }
        guard result == 0, length == 12 else { return nil }
        return credentials[1]
    }
}
