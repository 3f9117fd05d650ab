import Foundation
import Glibc
import TestSupport

/// Runs a shell script as root in a private mount namespace (`unshare -m`), so a test can
/// put its own socket at `/dev/log` or its own journald under `/run` without touching the
/// machine's: every mount the script makes (the photofs mount included) goes away with it.
enum PrivateMountNamespace {
    static var available: Bool {
        guard DaemonProcess.binaryExists else { return false }
        guard getuid() == 0, IntegrationLibrary.program("unshare") != nil else {
            return Skip.unless(false, "private-namespace logging test: needs root and unshare (util-linux)")
        }
        let probe = PhotoFSTests.run(["/usr/bin/env", "unshare", "-m", "--propagation", "private", "/bin/true"])
        return Skip.unless(probe.status == 0, "private-namespace logging test: unshare -m failed: \(probe.output)")
    }

    /// Runs `script` with `arguments` as `$1...`; its exit status and output.
    static func runScript(_ script: String, _ arguments: [String]) -> (status: Int32, output: String) {
        PhotoFSTests.run(["/usr/bin/env", "unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh"] + arguments)
    }

    /// Shell lines that hide the machine's /run and put `$1` (a socket) at /dev/log: /dev
    /// becomes a tmpfs with the devices photofs needs bound into it.
    static let syslogAtTestSocket = """
        set -e
        mount -t tmpfs tmpfs /run
        dev=$(mktemp -d)
        mount -t tmpfs tmpfs "$dev"
        for node in null zero full random urandom tty fuse; do
            touch "$dev/$node"; mount --bind "/dev/$node" "$dev/$node"
        done
        touch "$dev/log"; mount --bind "$1" "$dev/log"
        mount --rbind "$dev" /dev
        set +e

        """
}
