import Glibc

/// One picker per request: the daemon (on a request from a `.request` file) and the
/// desktop portal (on a file dialog) may both open the picker for the same request; the
/// first `photofs pick` takes this lock and a second one stops at once instead of
/// showing the person a second window. The lock is a `flock` on a file in the directory
/// of this user's daemon sockets (private to the user), held until the picker exits.
enum PickerLock {
    /// Takes the lock of `request` of `app` on `mountpoint`: its descriptor (kept open for
    /// the picker's life), or nil when another picker holds it. Where no lock file can be
    /// made, the picker runs without one (-1).
    static func take(app: String, request: Int, mountpoint: String, environment: [String: String]) -> Int32? {
        let directory = PickerSocketPath.directory(environment: environment)
        guard PickerSocketPath.prepare(directory) == nil else { return -1 }
        let socket = PickerSocketPath.socket(mountpoint: Array(mountpoint.utf8), environment: environment)
        // Named after the mount's socket and the request; app names hold no '/'.
        let path = String(socket.dropLast(5)) + "-\(app)-\(request).lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return -1 }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            return nil
        }
        return fd
    }

    /// Releases the lock and removes its file (a picker that opened the old file meanwhile
    /// finds the request answered).
    static func release(_ fd: Int32, app: String, request: Int, mountpoint: String, environment: [String: String]) {
        guard fd >= 0 else { return }
        let socket = PickerSocketPath.socket(mountpoint: Array(mountpoint.utf8), environment: environment)
        unlink(String(socket.dropLast(5)) + "-\(app)-\(request).lock")
        close(fd)
    }
}
