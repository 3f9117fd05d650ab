import Foundation
import Glibc
import Testing

/// A terminating signal ends an idle mount whichever of the daemon's threads the kernel
/// hands it to. libfuse's handler only marks the session as exited and counts on the signal
/// interrupting the loop's own wait; handled on another thread, it used to leave the loop
/// asleep until the next request, so `kill` of an idle mount did nothing.
@Suite("daemon: a signal ends an idle mount", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct SignalDeliveryTests {
    /// The daemon's threads but its first (which runs the FUSE loop) that do not block
    /// `signal` (`SigBlk` in `/proc/PID/task/TID/status`), so that the kernel may hand it to them.
    static func otherThreads(of pid: pid_t, taking signal: Int32) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { pid_t($0) }.filter { tid in
            guard tid != pid, let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & (1 << UInt64(signal - 1)) == 0
        }.sorted()
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalHandledOnAnotherThreadEndsTheLoop(signal: Int32) throws {
        let library = DaemonMountTests.generatedLibrary(count: 2)
        let base = (library as NSString).deletingLastPathComponent
        defer { run(["/bin/rm", "-rf", base]) }
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: base + "/catalog.sqlite")
        let threads = Self.otherThreads(of: daemon.pid, taking: signal)
        try #require(!threads.isEmpty, "no daemon thread but the loop's takes signal \(signal): the case cannot be staged")
        #expect(daemon.signal(signal, thread: threads[0]) == 0, "daemon log: \(daemon.log)")
        #expect(MountTableProbe.isMounted(mountpoint) == false)
    }
}
