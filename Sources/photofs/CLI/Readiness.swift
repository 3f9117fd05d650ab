import Foundation
import PhotoCore
import SystemKit

/// Tells the service manager how the daemon is doing (`Type=notify` units): `STATUS=`
/// lines, `READY=1` once the mount answers, `STOPPING=1` when it shuts down.
/// Without `$NOTIFY_SOCKET` every message is dropped by libsystemd.
struct Readiness: Sendable {
    func status(_ text: String) { Systemd.notify("STATUS=" + text) }

    /// Once the mount answers a `statvfs` (i.e. once the request loop, which the caller starts
    /// next, runs), writes `ready` to `readyFD` (the background parent's pipe, or a test's)
    /// and sends `READY=1` with `status`; from another thread. `statvfs` always reaches the
    /// daemon and leaves nothing behind: no descriptor open in the mount (an unmount right
    /// after readiness is not refused as busy) and no cached attributes of the root (which
    /// would hide a dead daemon from the stale-mount check for their timeout). `then` runs
    /// on that thread after `READY=1` (the mount's startup scan).
    func readyWhenAnswering(_ mountpoint: String, readyFD: Int32?, status: String, then: (@Sendable () -> Void)? = nil) {
        Thread.detachNewThread {
            try? FileSystem.askFileSystem(at: mountpoint)
            if let readyFD {
                let descriptor = FileDescriptor(rawValue: readyFD)
                _ = try? descriptor.write(Array("ready\n".utf8))
                descriptor.close()
            }
            Systemd.notify("READY=1\nSTATUS=" + status)
            then?()
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
