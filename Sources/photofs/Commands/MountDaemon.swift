import DaemonCore
import FuseKit
import PhotoCatalog
import PhotoCore
import PhotoMetadata
import SystemKit

/// The foreground daemon of `photofs mount -f`: catalog, index, first snapshot, mount,
/// readiness line, request loop, clean unmount.
enum MountDaemon {
    static func run(
        library: String, mountpoint: String, options: [String], readyFD: Int32?, arguments: ParsedArguments, environment: Environment
    ) throws(CLIError) -> ExitCode {
        let output = environment.output
        let logger = try Logger.daemon(arguments: arguments, environment: environment, mountpoint: mountpoint)
        let readiness = Readiness()
        var clock = PhaseClock()
        let context = try LibraryContext.open(library: library, arguments: arguments, environment: environment)
        let libraryPath = CatalogLocation.canonicalLibraryPath(library)
        let indexer = Indexer(catalog: context.catalog, library: libraryPath, analyzer: FileAnalyzer())
        // The one owner of the live state, empty until loaded: it publishes every change to
        // `kernel` (what the kernel must forget, the compatible JPEGs to make, the memory to
        // give back), which the file system subscribes to when made. The watcher (made
        // first, so it can watch folders during the walk) sends library changes to it.
        let kernel = ChangeQueue(log: { logger.warning($0) })
        let state = LibraryState(serving: context.catalog, filters: FilterLanguageResolver(), sink: kernel)
        let watcher = makeWatcher(indexer: indexer, state: state, logger: logger)
        defer { watcher?.stop() }
        clock.lap("catalog open")
        // The library is walked (and each folder watched before it is read) and compared
        // with the catalog on another thread. A catalog that holds assets is served as it
        // is: the walk starts once the mount answers, and what it finds new is indexed then
        // (`StartupScan.catchUp`). A first mount indexes before it is ready.
        let scanning = StartupScan(indexer: indexer, watcher: watcher)
        defer { scanning.stop() }
        // The catalog's first write (SQLite's log started and synced) while the views are
        // built, so that the first select after ready does not wait for it.
        let firstWrite = FirstWritePreparation()
        defer { firstWrite.wait(atMost: 2) }
        do throws(CatalogError) {
            try state.load(read: { _ in
                clock.lap(state.loadedFromSnapshotFile ? "catalog read (snapshot file)" : "catalog read")
                firstWrite.start(catalog: context.catalog, log: logger.daemonLog)
            })
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
        clock.lap(state.loadedViewTables ? "views (kept tables)" : "views")
        // The first app's select must not pay for the runtime's first use of the picker's code.
        PickerWarmUp.run(state: state, filters: FilterLanguageResolver(), noContentIdentifiers: firstWrite.noContentIdentifiers)
        clock.lap("picker warm-up")
        var configuration = FileSystemConfiguration(
            libraryPath: libraryPath, ownerUID: CurrentProcess.realUserID, ownerGID: CurrentProcess.realGroupID, log: { logger.warning($0) }
        )
        configuration.othersMayEnter = FuseMount.othersMayEnter(options)
        let accessLog = try AccessLogging.start(arguments: arguments, catalog: context.catalog, logger: logger)
        defer { accessLog?.stop() }
        configuration.accessRecorder = accessLog?.queue
        configuration.representations = CompatibleViews.provider(environment: environment)
        let control = PickerControl(
            state: state, mountpoint: CatalogLocation.canonicalLibraryPath(mountpoint), log: logger.daemonLog)
        let fileSystem = try makeFileSystem(
            configuration, state: state, control: control, kernel: kernel, library: library, mountpoint: mountpoint)
        RequestNotifier(log: logger, environment: environment, catalog: context.catalogPath).start(
            draining: fileSystem.layer.requests.events)
        let scanAfterReady = !state.current.snapshot.assets.isEmpty
        if !scanAfterReady {
            // Nothing catalogued yet: nothing to serve until the first index run.
            scanning.start(comparingWith: state.current.snapshot)
            try indexFirst(
                scanning, context: context, indexer: indexer, state: state, readiness: readiness, arguments: arguments,
                environment: environment)
            clock.lap("scan wait and index")
        }
        let mount: FuseMount
        do throws(MountError) {
            mount = try FuseMount(fileSystem: fileSystem, mountpoint: mountpoint, options: options, debug: arguments.flag("debug"))
        } catch {
            throw describe(error, library: library, mountpoint: mountpoint)
        }
        clock.lap("mount")
        fileSystem.prepareRepresentations()
        let pickerSocket = PickerSocketServer.start(
            mountpoint: control.mountpoint, channel: DaemonChannel(control: control, fileSystem: fileSystem, log: logger),
            environment: environment.variables, log: logger)
        defer { pickerSocket?.stop() }
        let grantEnding = GrantEndingTimer(state: state, log: logger.daemonLog)
        grantEnding.start()
        defer { grantEnding.stop() }
        logger.debug("startup: " + clock.summary)
        if !arguments.flag("quiet") { output.error("mounted \(library) on \(mountpoint)") }
        logger.info("mount ready on \(mountpoint) (\(state.current.snapshot.assets.count) assets)")
        // Changes queued since each folder got its watch are handled from here on (after
        // the startup scan's run, which knows only the older walk).
        var caughtUp: (@Sendable () -> Void)?
        if scanAfterReady {
            let handler = state.indexRunHandler(log: logger.daemonLog)
            caughtUp = {
                scanning.start(comparingWith: state.current.snapshot, belowRequests: true)
                scanning.catchUp(
                    deliver: { summary throws(CatalogError) in
                        try handler(summary)
                        readiness.status(Readiness.serving(state.current.snapshot, on: mountpoint))
                    },
                    report: { line, failed in failed ? logger.error(line) : logger.debug(line) },
                    then: {
                        // The walk (about 100 bytes a file) is freed: give its pages back.
                        kernel.releaseFreedMemory()
                        watcher?.run()
                    })
            }
        } else {
            watcher?.run()
        }
        let afterReadyWork = AfterReadyWork()
        defer { afterReadyWork.stop() }
        let afterReady: @Sendable () -> Void = { [caughtUp] in
            afterReadyWork.start(state: state, log: logger.daemonLog)
            caughtUp?()
        }
        readiness.readyWhenAnswering(
            mountpoint, readyFD: readyFD, status: Readiness.serving(state.current.snapshot, on: mountpoint), then: afterReady)
        if arguments.flag("detach") {
            if let null = try? FileDescriptor.open("/dev/null", .readWrite) {
                null.duplicate(as: 1)
                null.duplicate(as: 2)
                null.close()
            }
        }
        let result: Int32
        do throws(MountError) {
            result = try mount.run()
        } catch {
            mount.close()
            throw describe(error, library: library, mountpoint: mountpoint)
        }
        readiness.stopping("unmounting \(mountpoint)")
        mount.close()
        if result < 0 {
            throw .failure("the FUSE loop for \(mountpoint) ended with an error: \(Errno(rawValue: -result)).")
        }
        if !arguments.flag("quiet") { output.error("unmounted \(mountpoint)") }
        logger.info("unmounted \(mountpoint)")
        return .success
    }

    /// The library watcher (inotify), opened but not yet running: each re-index that
    /// changed the catalog reloads the library state and shows it, invalidating what the
    /// kernel cached. Without a watcher (inotify limits) the mount still works and says that
    /// changes show after a remount.
    private static func makeWatcher(indexer: Indexer, state: LibraryState, logger: Logger) -> LibraryWatcher? {
        let watcher = LibraryWatcher(
            indexer: indexer, onCatalogChange: state.indexRunHandler(log: logger.daemonLog),
            onError: { logger.error("re-indexing after a change failed (retried on the next change): \($0)") })
        do throws(WatchError) {
            try watcher.open()
            return watcher
        } catch {
            logger.warning("not watching the library for changes (\(error)); changes show after a remount.")
            return nil
        }
    }

    /// A first mount (nothing catalogued): waits for the walk and indexes what it found
    /// before the mount is ready. Not mounted yet: nothing for the kernel to forget.
    private static func indexFirst(
        _ scanning: StartupScan, context: LibraryContext, indexer: Indexer, state: LibraryState, readiness: Readiness,
        arguments: ParsedArguments, environment: Environment
    ) throws(CLIError) {
        let scan: LibraryScan
        switch scanning.result() {
        case .success(let walked):
            guard walked.needsIndexing else { return }
            scan = walked.scan
        case .failure(let error): throw IndexCommand.describe(error, context: context)
        case nil: throw .failure("the scan of \(context.library) did not finish.")
        }
        readiness.status("indexing new and changed files of \(context.library)")
        _ = try IndexCommand.run(context, indexer: indexer, scan: scan, quiet: arguments.flag("quiet"), environment: environment)
        do throws(CatalogError) {
            try state.reload()
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
    }

    private static func makeFileSystem(
        _ configuration: FileSystemConfiguration, state: LibraryState, control: PickerControl, kernel: ChangeQueue, library: String,
        mountpoint: String
    ) throws(CLIError) -> PhotoFileSystem {
        do throws(MountError) {
            return try PhotoFileSystem(configuration: configuration, views: state, plans: state.plans, control: control, sink: kernel)
        } catch {
            throw describe(error, library: library, mountpoint: mountpoint)
        }
    }

    private static func describe(_ error: MountError, library: String, mountpoint: String) -> CLIError {
        switch error {
        case .libraryUnreadable(let code):
            .failure("cannot open the library \(library): \(Errno(rawValue: code)).")
        case .sessionFailed:
            .usage("libfuse refused the mount options (see the message above).")
        case .mountFailed:
            .failure("the kernel refused to mount on \(mountpoint) (see the message above).")
        case .loopFailed:
            .failure("cannot start the FUSE request loop.")
        }
    }
}
