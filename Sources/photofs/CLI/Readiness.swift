import Foundation
import Glibc
import PhotoCore

/// Tells the service manager how the daemon is doing (`Type=notify` units): `STATUS=`
/// lines, `READY=1` once the mount answers a listing, `STOPPING=1` when it shuts down.
/// Without `$NOTIFY_SOCKET` every message is dropped by libsystemd.
struct Readiness: Sendable {
    func status(_ text: String) { Systemd.notify("STATUS=" + text) }

    /// Sends `READY=1` with `status` from another thread once a listing of the mount's
    /// root has been answered, i.e. once the request loop runs (the caller starts it next).
    func readyWhenAnswering(_ mountpoint: String, status: String) {
        Thread.detachNewThread {
            if let directory = opendir(mountpoint) {
                _ = readdir(directory)
                closedir(directory)
            }
            Systemd.notify("READY=1\nSTATUS=" + status)
        }
    }

    func stopping(_ status: String) { Systemd.notify("STOPPING=1\nSTATUS=" + status) }
}

extension Readiness {
    /// The status line of a mount that serves `snapshot`.
    static func serving(_ snapshot: LibrarySnapshot, on mountpoint: String) -> String {
        let apps = snapshot.apps.count
        return
            "serving \(snapshot.assets.count) asset\(snapshot.assets.count == 1 ? "" : "s") to \(apps) app\(apps == 1 ? "" : "s") on \(mountpoint)"
    }
}
