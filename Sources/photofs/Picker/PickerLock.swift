import DaemonClient
import SystemKit

/// One picker per request: the daemon (on a request from a `.request` file) and the
/// desktop portal (on a file dialog) may both open the picker for the same request; the
/// first `photofs pick` takes this lock and a second one stops at once instead of
/// showing the person a second window. The lock is a `flock` on a file in the directory
/// of this user's daemon sockets (private to the user), held until the picker exits.
enum PickerLock {
    /// What `take` got.
    enum Taken {
        /// The lock, on this descriptor (kept open for the picker's life).
        case held(FileDescriptor)
        /// No lock file could be made: the picker runs without one.
        case unlocked
    }

    /// Takes the lock of `request` of `app` on `mountpoint`, or nil when another picker
    /// holds it.
    static func take(app: String, request: Int, mountpoint: String, environment: [String: String]) -> Taken? {
        let directory = PickerSocketPath.directory(environment: environment)
        guard PickerSocketPath.prepare(directory) == nil else { return .unlocked }
        let socket = PickerSocketPath.socket(mountpoint: Array(mountpoint.utf8), environment: environment)
        // Named after the mount's socket and the request; app names hold no '/'.
        let path = String(socket.dropLast(5)) + "-\(app)-\(request).lock"
        guard let descriptor = try? FileDescriptor.open(path, [.readWrite, .create, .noFollow], mode: 0o600) else { return .unlocked }
        guard descriptor.tryLockExclusively() else {
            descriptor.close()
            return nil
        }
        return .held(descriptor)
    }

    /// Releases the lock and removes its file (a picker that opened the old file meanwhile
    /// finds the request answered).
    static func release(_ taken: Taken, app: String, request: Int, mountpoint: String, environment: [String: String]) {
        guard case .held(let lock) = taken else { return }
        let socket = PickerSocketPath.socket(mountpoint: Array(mountpoint.utf8), environment: environment)
        try? FileSystem.remove(String(socket.dropLast(5)) + "-\(app)-\(request).lock")
        lock.close()
    }
}
