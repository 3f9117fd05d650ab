import PhotoCore
import PhotoHashing
import SystemKit

/// Where the picker socket of a mount lives: in a directory of the mounting user's own
/// (`$XDG_RUNTIME_DIR/photofs`, else `/run/photofs` for root, else `/tmp/photofs-UID`),
/// never inside the mount, named after the mountpoint's real path, so the daemon and the
/// CLI of the same user find the same socket without asking anyone.
public enum PickerSocketPath {
    /// The socket directory for `uid` in `environment`.
    public static func directory(environment: [String: String], uid: UInt32 = CurrentProcess.realUserID) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), runtime.count < 64 {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/photofs"
        }
        return uid == 0 ? "/run/photofs" : "/tmp/photofs-\(uid)"
    }

    /// The socket of the mount at `mountpoint` (its canonical path bytes).
    public static func socket(mountpoint: [UInt8], environment: [String: String]) -> String {
        directory(environment: environment) + "/picker-" + SHA256.hex(SHA256.hash(mountpoint)).prefix(16) + ".sock"
    }

    /// Why `directory` may not hold a picker socket, or nil when it is the caller's own:
    /// a real directory (not a symlink) owned by this uid that no one else may enter.
    public static func problem(with directory: String) -> String? {
        let status: FileStatus
        do throws(Errno) {
            status = try FileStatus.ofLink(path: directory)
        } catch {
            return "\(directory): \(error)"
        }
        let me = CurrentProcess.realUserID
        guard status.kind == .directory else { return "\(directory) is not a directory" }
        guard status.owner == me else { return "\(directory) belongs to uid \(status.owner), not to uid \(me)" }
        guard status.permissions & 0o077 == 0 else {
            return "\(directory) may be entered by other users (mode \(String(status.permissions & 0o777, radix: 8)))"
        }
        return nil
    }

    /// Creates the socket directory (0700) when missing, and narrows one of ours that
    /// others may enter; returns why it cannot be used, or nil.
    public static func prepare(_ directory: String) -> String? {
        do throws(Errno) {
            try FileSystem.makeDirectory(directory, mode: 0o700)
        } catch {
            return "cannot create \(directory): \(error)"
        }
        if let status = try? FileStatus.ofLink(path: directory), status.kind == .directory, status.owner == CurrentProcess.realUserID,
            status.permissions & 0o077 != 0
        {
            try? FileSystem.setPermissions(directory, status.permissions & 0o700)
        }
        return problem(with: directory)
    }
}
