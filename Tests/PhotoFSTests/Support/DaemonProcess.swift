import Foundation
import Glibc
import TestSupport
import Testing

/// The built `photofs` binary started in the foreground (`mount -f --ready-fd 3`), as a user
/// would run it: waits for the readiness line (never a sleep), fails fast with the daemon's
/// stderr when it dies first, and always unmounts. The daemon logs at debug level, and once
/// it has exited its log is checked (`LogScan`): no coordinate, no GPS value, no file bytes.
final class DaemonProcess {
    /// `.build/debug/photofs`, found from this file's path (`swift test` builds it first).
    static let binary: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".build/debug/photofs").path
    }()

    static var binaryExists: Bool {
        if access(binary, X_OK) == 0 { return true }
        return Skip.unless(false, "daemon test: \(binary) is not built (run 'swift build' first)")
    }

    let pid: pid_t
    let mountpoint: String
    let logPath: String
    private var exitStatus: Int32?
    /// Latitudes and longitudes of the library's photos, which no log line may contain.
    var forbiddenCoordinates: [Double] = []
    /// Whether the log was checked already (once, after the daemon exited).
    private var logChecked = false

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the daemon and returns once the mount is ready; `environment` overrides
    /// variables of this process's environment for the daemon.
    init(
        library: String, mountpoint: String, catalog: String, extra: [String] = [], timeout: Double = 120,
        environment: [String: String] = [:]
    ) throws {
        self.mountpoint = mountpoint
        // One log per daemon: a remount on the same mountpoint must not share (and, when the
        // replaced daemon's object goes, lose) the new daemon's log.
        logPath = mountpoint + "." + String(UInt64.random(in: 0...UInt64.max), radix: 16) + ".log"
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw StartFailure(description: "pipe failed") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        let argv =
            [Self.binary, "mount", "-f", "--ready-fd", "3", "--quiet", "--log-level", "debug", "--catalog", catalog] + extra + [
                "--", library, mountpoint,
            ]
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let log = logPath
        let started = spawnUnblocked(argv, environment: variables.map { "\($0.key)=\($0.value)" }) { actions in
            posix_spawn_file_actions_adddup2(&actions, fds[1], 3)
            posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        close(fds[1])
        defer { close(fds[0]) }
        let child: pid_t
        switch started {
        case .success(let spawned): child = spawned
        case .failure(let failure): throw StartFailure(description: "posix_spawn failed: \(failure.errno)")
        }
        pid = child
        var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(timeout * 1000))
        var line = [UInt8](repeating: 0, count: 16)
        let count = ready > 0 ? Glibc.read(fds[0], &line, 16) : 0
        guard count > 0, line.starts(with: Array("ready".utf8)) else {
            if ready == 0 { kill(child, SIGKILL) }
            let status = Self.reap(child)
            throw StartFailure(description: "photofs mount died before ready (status \(status)): \(Self.read(logPath))")
        }
    }

    /// The number of descriptors the daemon holds.
    var descriptorCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// The descriptors the daemon holds on files below `root` (the library): after every
    /// reader closed, only the library root itself may remain. (The total count also varies
    /// with libfuse's worker threads, so it is not what a leak test should compare.)
    func descriptors(below root: String) -> [String] {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0) }
            .filter { $0 == root || $0.hasPrefix(root + "/") }
    }

    /// `descriptors(below:)` once it settles at `expected` (up to 2 s): a readahead READ the
    /// kernel sent without waiting may still hold its source open for a moment.
    func settledDescriptors(below root: String, expected: [String]) -> [String] {
        var found = descriptors(below: root)
        for _ in 0..<100 where found != expected {
            usleep(20_000)
            found = descriptors(below: root)
        }
        return found
    }

    /// What the daemon wrote to stderr.
    var log: String { Self.read(logPath) }

    /// Waits (up to `timeout` seconds) until the startup scan of a catalogued library has
    /// compared the library with the catalog and shown what it indexed (the mount is ready
    /// before that); true once its debug line is logged.
    @discardableResult
    func waitForStartupScan(timeout: Double = 60) -> Bool {
        for _ in 0..<Int(timeout * 50) {
            // Every outcome's line (nothing new, indexed, failed) names the startup scan.
            if log.contains("startup scan") { return true }
            usleep(20_000)
        }
        return false
    }

    /// Records an issue for every log line that breaks the logging rules; runs
    /// once, after the daemon exited.
    private func checkLog() {
        guard !logChecked else { return }
        logChecked = true
        let problems = LogScan.problems(in: log, coordinates: forbiddenCoordinates)
        for problem in problems.prefix(5) { Issue.record("daemon log \(logPath): \(problem)") }
    }

    /// Unmounts with fusermount3 and returns the daemon's exit status.
    @discardableResult
    func unmount() -> Int32 {
        defer { if exitStatus != nil { checkLog() } }
        if let exitStatus { return exitStatus }
        _ = run(["/usr/bin/env", "fusermount3", "-u", mountpoint])
        var status: Int32 = 0
        // Up to 15 s: a session that a just-killed sandbox's mount namespace still held
        // ends only once the kernel has torn that namespace down, slow on a loaded machine.
        for _ in 0..<750 {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let code = shellStatus(status)
                exitStatus = code
                return code
            }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        exitStatus = Self.reap(pid)
        _ = run(["/usr/bin/env", "fusermount3", "-u", "-z", mountpoint])
        return exitStatus ?? -1
    }

    /// Kills the daemon without letting it unmount (a crash).
    func crash() {
        kill(pid, SIGKILL)
        exitStatus = Self.reap(pid)
        checkLog()
    }

    /// Sends a signal (to one of the daemon's threads when `thread` is given, as the
    /// kernel may pick any thread that does not block it) and waits up to 10 s for the exit
    /// status; -1 (and the daemon killed) when it did not exit.
    func signal(_ number: Int32, thread: pid_t? = nil) -> Int32 {
        if let thread {
            // glibc's tgkill(2) wrapper, which Swift's Glibc module does not show.
            typealias ThreadKill = @convention(c) (pid_t, pid_t, Int32) -> Int32
            guard let symbol = dlsym(nil, "tgkill") else { return -1 }
            _ = unsafeBitCast(symbol, to: ThreadKill.self)(pid, thread, number)
        } else {
            kill(pid, number)
        }
        var status: Int32 = 0
        for _ in 0..<500 {
            if waitpid(pid, &status, WNOHANG) == pid {
                let code = shellStatus(status)
                exitStatus = code
                checkLog()
                return code
            }
            usleep(20_000)
        }
        crash()
        _ = run(["/usr/bin/env", "fusermount3", "-u", "-z", mountpoint])
        return -1
    }

    deinit {
        if exitStatus == nil { unmount() }
        unlink(logPath)
    }

    private static func reap(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return shellStatus(status)
    }

    /// The file as text; bytes that are not UTF-8 become U+FFFD (which `LogScan` reports).
    private static func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
}

/// Runs a command to completion; its exit status and combined stdout+stderr. (posix_spawn
/// rather than Foundation's Process, whose exit monitoring depends on SIGCHLD reaching a
/// thread that test runners block.)
@discardableResult
func run(_ argv: [String]) -> (status: Int32, output: String) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return (-1, "pipe failed") }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    let started = spawnUnblocked(argv) { actions in
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    close(fds[1])
    defer { close(fds[0]) }
    guard case .success(let pid) = started else { return (-1, "cannot start \(argv[0])") }
    // Read until EOF, but stop waiting once the child is gone: a daemon it left behind
    // may keep the pipe open.
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var status: Int32 = 0
    var exited = false
    while true {
        var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, 50) > 0 {
            let count = Glibc.read(fds[0], &buffer, buffer.count)
            if count > 0 {
                output += buffer[0..<count]
                continue
            }
            if count == 0 { break }
        }
        if exited { break }
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
    }
    if !exited { while waitpid(pid, &status, 0) < 0 && errno == EINTR {} }
    let code = shellStatus(status)
    return (code, String(decoding: output, as: UTF8.self))
}

/// Where the tests make their directories and mounts: `$PHOTOFS_TEST_ROOT` when set (the
/// directory `mount-scripts/test` makes for one run, and whose mounts alone it cleans up
/// after a failed test), else `/tmp`.
let testRoot: String = {
    if let root = ProcessInfo.processInfo.environment["PHOTOFS_TEST_ROOT"], root.hasPrefix("/") { return root }
    return "/tmp"
}()

/// A fresh temporary directory below `testRoot`.
func temporaryDirectory(_ prefix: String) -> String {
    var template = Array("\(testRoot)/\(prefix)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: made!)
}
