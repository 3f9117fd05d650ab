import CFuse
import PhotoCore
import Synchronization
import SystemKit

/// One mounted session of a `PhotoFileSystem`, through the libfuse3 low-level API:
/// `fuse_session_new` (ops table + the file system as userdata) → signal handlers
/// (SIGINT/SIGTERM/SIGHUP end the loop) → `fuse_session_mount` → `run()`
/// (`fuse_session_loop_mt`) → `close()` (unmount, destroy).
///
/// Supports: read-only views, the writable `.picker`, `allow_other` with
/// `default_permissions`. Does not support: xattrs, locks, mmap writes, NFS export.
///
/// `run()` blocks one thread; `stop()` and `close()` may be called from another (the
/// session pointer never changes and `close` runs once).
public final class FuseMount: @unchecked Sendable {
    private let fileSystem: PhotoFileSystem
    private let session: OpaquePointer
    private let arguments: [UnsafeMutablePointer<CChar>?]
    private let closed = Atomic(false)

    /// `options` with `default_permissions` added whenever other users may enter the mount
    /// (`allow_other`, `allow_root`): the mount has no OPEN round trip, so an open is
    /// checked by the kernel alone, from the ownership and modes the daemon reports, and
    /// a page another user cached must not be readable through a dentry the kernel kept.
    static func withKernelPermissions(_ options: [String]) -> [String] {
        guard othersMayEnter(options), !optionNames(options).contains("default_permissions") else { return options }
        return options + ["default_permissions"]
    }

    /// Whether `options` let users other than the mounting one in (`allow_other`, `allow_root`).
    public static func othersMayEnter(_ options: [String]) -> Bool {
        let names = optionNames(options)
        return names.contains("allow_other") || names.contains("allow_root")
    }

    private static func optionNames(_ options: [String]) -> [String] {
        options.flatMap { $0.split(separator: ",").map { $0.split(separator: "=").first.map(String.init) ?? "" } }
    }

    /// Creates the session and mounts it. `options` are `-o` mount options
    /// (e.g. `allow_other`, `default_permissions`, `fsname=...`).
    public init(fileSystem: PhotoFileSystem, mountpoint: String, options: [String], debug: Bool = false) throws(MountError) {
        self.fileSystem = fileSystem
        var argv = ["photofs"]
        let options = Self.withKernelPermissions(options)
        if !options.isEmpty { argv += ["-o", options.joined(separator: ",")] }
        if debug { argv.append("-d") }
        let arguments = argv.map { Self.copy($0) } + [nil]
        self.arguments = arguments
        // Read at INIT with the configuration: either one letting others in keeps OPENDIR.
        fileSystem.optionsLetOthersIn.store(Self.othersMayEnter(options), ordering: .relaxed)
        var ops = FuseOperations.table()
        let userdata = Unmanaged.passUnretained(fileSystem).toOpaque()
        var argvCopy = arguments
        let created = argvCopy.withUnsafeMutableBufferPointer { argvBuffer -> OpaquePointer? in
            var args = fuse_args(argc: Int32(argv.count), argv: argvBuffer.baseAddress, allocated: 0)
            return fuse_session_new(&args, &ops, MemoryLayout<fuse_lowlevel_ops>.size, userdata)
        }
        guard let created else {
            Self.free(arguments)
            throw .sessionFailed
        }
        session = created
        // SIGINT/SIGTERM/SIGHUP end the loop; a parent may have started us with them
        // blocked, and the worker threads inherit this thread's mask.
        Signals.unblockOnCurrentThread([Signals.interrupt, Signals.terminate, Signals.hangUp])
        guard fuse_set_signal_handlers(session) == 0 else {
            fuse_session_destroy(session)
            Self.free(arguments)
            throw .sessionFailed
        }
        guard mountpoint.withCString({ fuse_session_mount(session, $0) }) == 0 else {
            fuse_remove_signal_handlers(session)
            fuse_session_destroy(session)
            Self.free(arguments)
            throw .mountFailed
        }
        fileSystem.invalidator.attach(session)
    }

    /// Serves requests on up to `maxThreads` threads until unmounted or signalled.
    /// Returns 0 after an unmount, a signal number after SIGINT/SIGTERM/SIGHUP (SIGTERM
    /// when `LoopWaker` repeated the signal, which it may also do while an unmount ends
    /// the loop: never a negative number, which is an error).
    public func run() throws(MountError) -> Int32 {
        guard let config = fuse_loop_cfg_create() else { throw .loopFailed }
        defer { fuse_loop_cfg_destroy(config) }
        fuse_loop_cfg_set_max_threads(config, UInt32(max(1, fileSystem.configuration.maxThreads)))
        fuse_loop_cfg_set_idle_threads(config, UInt32(max(1, fileSystem.configuration.maxThreads / 2)))
        let waker = LoopWaker(session: session, loopThread: .current)
        defer { waker.stop() }
        return fuse_session_loop_mt(session, config)
    }

    /// Ends the loop from another thread (tests), as a signal would.
    public func stop() {
        fuse_session_exit(session)
    }

    /// Unmounts and frees the session; safe to call twice.
    public func close() {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        fileSystem.invalidator.detach()
        fuse_remove_signal_handlers(session)
        fuse_session_unmount(session)
        fuse_session_destroy(session)
        Self.free(arguments)
    }

    deinit {
        close()
    }

    private static func free(_ arguments: [UnsafeMutablePointer<CChar>?]) {
        for argument in arguments { argument?.deallocate() }
    }

    /// A C string of `text` that lives until `free` (the arguments libfuse keeps).
    private static func copy(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = Array(text.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return copy
    }
}
