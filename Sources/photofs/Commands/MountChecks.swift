import DaemonClient
import Dispatch
import FuseKit
import SystemKit

/// The checks `photofs mount` makes before it touches anything: dependencies present,
/// mountpoint an empty directory outside the library (and the library outside it), no
/// stale mount left by a daemon that died.
enum MountChecks {
    /// /dev/fuse usable and fusermount3 on the PATH, or a missing-dependency error.
    static func dependencies(_ environment: Environment) throws(CLIError) {
        guard FileSystem.isReadableAndWritable("/dev/fuse") else {
            throw .missingDependency(
                "/dev/fuse is missing or not accessible: load the fuse module ('modprobe fuse') or run where FUSE is available.")
        }
        guard fusermount(environment) != nil else {
            throw .missingDependency("fusermount3 was not found on the PATH: install the fuse3 package.")
        }
    }

    /// The fusermount3 binary on the PATH.
    static func fusermount(_ environment: Environment) -> String? {
        let path = environment.variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/fusermount3" }.first(where: FileSystem.isExecutable)
    }

    /// Validates the mountpoint for a library; clears a stale mount when its daemon is gone.
    static func mountpoint(_ mountpoint: String, library: String, catalog: String?, environment: Environment) throws(CLIError) {
        // A stat can be answered from attributes the kernel cached while the daemon lived;
        // only a request that reaches the daemon tells a dead one apart.
        if MountTable.current().entry(at: mountpoint) != nil, daemonIsGone(mountpoint) {
            try clearStale(mountpoint, environment: environment)
        }
        var status: FileStatus
        do throws(Errno) {
            status = try FileStatus.of(path: mountpoint)
        } catch {
            switch error {
            case .notConnected:
                try clearStale(mountpoint, environment: environment)
                guard let again = try? FileStatus.of(path: mountpoint) else {
                    throw .failure("\(mountpoint) is still a broken mount; run 'fusermount3 -u \(mountpoint)' and try again.")
                }
                status = again
            case .noSuchFileOrDirectory:
                throw .notFound("the mountpoint \(mountpoint) does not exist; create it with 'mkdir -p \(mountpoint)'.")
            default:
                throw .failure("cannot use the mountpoint \(mountpoint): \(error).")
            }
        }
        guard status.kind == .directory else { throw .usage("the mountpoint \(mountpoint) is not a directory.") }
        if MountTable.current().entry(at: mountpoint) != nil {
            throw .refused("\(mountpoint) is already a photofs mount; run 'photofs unmount \(mountpoint)' first.")
        }
        guard let realMount = realPath(mountpoint), let realLibrary = realPath(library) else {
            throw .failure("cannot resolve \(mountpoint) or \(library).")
        }
        if isSameOrInside(realMount, realLibrary) {
            throw .usage("the mountpoint \(mountpoint) is inside the library \(library); choose a mountpoint outside it.")
        }
        if isSameOrInside(realLibrary, realMount) {
            throw .usage("the library \(library) is inside the mountpoint \(mountpoint); choose a mountpoint outside it.")
        }
        if let catalog, let realCatalog = realPath(parentOf(catalog)), isSameOrInside(realCatalog, realMount) {
            throw .usage("the catalog \(catalog) would be inside the mount; keep it outside \(mountpoint).")
        }
        guard isEmptyDirectory(mountpoint) else {
            throw .usage("the mountpoint \(mountpoint) is not empty; photofs mounts only on an empty directory.")
        }
    }

    /// Whether the FUSE mount at `mountpoint` has lost its daemon: `statvfs` is never
    /// answered from the kernel's caches, so it fails with ENOTCONN exactly then.
    static func daemonIsGone(_ mountpoint: String) -> Bool {
        do throws(Errno) {
            try FileSystem.askFileSystem(at: mountpoint)
            return false
        } catch {
            return error == .notConnected
        }
    }

    /// "Transport endpoint is not connected": the daemon that served this mount died
    /// (e.g. `kill -9`). Nothing can still be served from it, so it is safe to unmount.
    private static func clearStale(_ mountpoint: String, environment: Environment) throws(CLIError) {
        let how = "run 'fusermount3 -u \(mountpoint)' (or 'photofs unmount \(mountpoint)') and try again"
        environment.output.error("\(mountpoint) is a stale mount (Transport endpoint is not connected): its daemon is gone. Unmounting it.")
        guard let tool = fusermount(environment) else { throw .failure("cannot clear the stale mount: \(how).") }
        let code = Spawn.run([tool, "-u", mountpoint])
        if code != 0, Spawn.run([tool, "-u", "-z", mountpoint]) != 0 {
            throw .failure("could not clear the stale mount at \(mountpoint): \(how).")
        }
    }

    /// The absolute path with symlinks resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        FileSystem.realPath(Array(path.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    static func parentOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Whether `inner` is `outer` or below it (real paths).
    static func isSameOrInside(_ inner: String, _ outer: String) -> Bool {
        inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }

    private static func isEmptyDirectory(_ path: String) -> Bool {
        (try? FileSystem.names(inDirectory: path))?.isEmpty ?? false
    }
}

/// Runs helper programs (fusermount3, the daemon child) with posix_spawn: no fork in a
/// process that may already run threads.
enum Spawn {
    /// Runs a program to completion; its exit status, or -1 when it could not start.
    static func run(_ argv: [String]) -> Int32 {
        guard let child = start(argv) else { return -1 }
        return wait(child)
    }

    /// Starts a program with its standard input, output and error on /dev/null (a browser,
    /// a picker, a notifier: nothing of theirs belongs on our terminal); nil when it could
    /// not start.
    static func startQuietly(_ argv: [String]) -> ChildProcess? {
        start(argv, descriptors: [0: .null, 1: .null, 2: .null])
    }

    /// Starts a program quietly and reaps it on a background thread when it ends.
    @discardableResult
    static func startReaped(_ argv: [String]) -> Bool {
        guard let child = startQuietly(argv) else { return false }
        DispatchQueue.global(qos: .utility).async { _ = wait(child) }
        return true
    }

    /// Starts a program (signals unblocked and at their defaults in the child); nil when
    /// posix_spawn failed.
    static func start(_ argv: [String], descriptors: [Int32: ChildProcess.Inherited] = [:], newSession: Bool = false) -> ChildProcess? {
        try? ChildProcess.start(argv, descriptors: descriptors, newSession: newSession)
    }

    /// Waits for a child; its exit status (128 + signal when killed), or -1.
    static func wait(_ child: ChildProcess) -> Int32 {
        (try? child.wait())?.shellStatus ?? -1
    }
}
