import Glibc
import PhotoCatalog
import PhotoCore
import PhotoFS
import PhotoMetadata

/// The foreground daemon of `photofs mount -f`: catalog, index, first snapshot, mount,
/// readiness line, request loop, clean unmount.
enum MountDaemon {
    static func run(
        library: String, mountpoint: String, options: [String], readyFD: Int32?, arguments: ParsedArguments, environment: Environment
    ) throws(CLIError) -> ExitCode {
        let output = environment.output
        let logger = Logger(
            level: arguments.value("log-level").flatMap { Logger.Level(name: $0) } ?? .info,
            sink: arguments.flag("detach") ? .syslog : .stderr)
        let context = try LibraryContext.open(library: library, arguments: arguments, environment: environment)
        _ = try IndexCommand.run(context, quiet: arguments.flag("quiet"), environment: environment)
        let state: LibraryState
        do throws(CatalogError) {
            state = try LibraryState(catalog: context.catalog)
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
        let configuration = FileSystemConfiguration(
            libraryPath: CatalogLocation.canonicalLibraryPath(library), ownerUID: getuid(), ownerGID: getgid(),
            log: { logger.warning($0) })
        let fileSystem: PhotoFileSystem
        let mount: FuseMount
        do throws(MountError) {
            let control = PickerControl(
                state: state, mountpoint: CatalogLocation.canonicalLibraryPath(mountpoint), log: logger)
            fileSystem = try PhotoFileSystem(
                configuration: configuration, snapshot: state.current.snapshot, filters: FilterLanguageResolver(), control: control,
                latest: { state.current.snapshot })
            mount = try FuseMount(fileSystem: fileSystem, mountpoint: mountpoint, options: options, debug: arguments.flag("debug"))
        } catch {
            throw describe(error, library: library, mountpoint: mountpoint)
        }
        let watcher = startWatcher(context: context, library: library, state: state, fileSystem: fileSystem, logger: logger)
        defer { watcher?.stop() }
        output.error("mounted \(library) on \(mountpoint)")
        logger.info("mount ready on \(mountpoint) (\(state.current.snapshot.assets.count) assets)")
        if let readyFD {
            let line = Array("ready\n".utf8)
            _ = line.withUnsafeBytes { write(readyFD, $0.baseAddress!, $0.count) }
            close(readyFD)
        }
        if arguments.flag("detach") {
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            if null >= 0 {
                dup2(null, 1)
                dup2(null, 2)
                close(null)
            }
        }
        let result: Int32
        do throws(MountError) {
            result = try mount.run()
        } catch {
            mount.close()
            throw describe(error, library: library, mountpoint: mountpoint)
        }
        mount.close()
        if result < 0 {
            throw .failure("the FUSE loop for \(mountpoint) ended with an error: \(String(cString: strerror(-result))).")
        }
        output.error("unmounted \(mountpoint)")
        logger.info("unmounted \(mountpoint)")
        return .success
    }

    /// Watches the library (inotify): each re-index that changed the catalog reloads the
    /// library state and shows it, invalidating what the kernel cached. Without a watcher
    /// (inotify limits) the mount still works and says that changes show after a remount.
    private static func startWatcher(
        context: LibraryContext, library: String, state: LibraryState, fileSystem: PhotoFileSystem, logger: Logger
    )
        -> LibraryWatcher?
    {
        let indexer = Indexer(catalog: context.catalog, library: CatalogLocation.canonicalLibraryPath(library), analyzer: FileAnalyzer())
        let watcher = LibraryWatcher(
            indexer: indexer,
            onChange: { _, summary in
                logger.debug(
                    "library changed: \(summary.new) new, \(summary.changed) changed, \(summary.moved) moved, \(summary.removed) removed")
                do throws(CatalogError) {
                    try state.reload()
                    fileSystem.installLatest()
                } catch {
                    logger.error("cannot read the catalog after a change in the library: \(error)")
                }
            },
            onError: { logger.error("re-indexing after a change failed (retried on the next change): \($0)") })
        do throws(WatchError) {
            try watcher.start()
            return watcher
        } catch {
            logger.warning("not watching the library for changes (\(error)); changes show after a remount.")
            return nil
        }
    }

    private static func describe(_ error: MountError, library: String, mountpoint: String) -> CLIError {
        switch error {
        case .libraryUnreadable(let code):
            .failure("cannot open the library \(library): \(String(cString: strerror(code))).")
        case .sessionFailed:
            .usage("libfuse refused the mount options (see the message above).")
        case .mountFailed:
            .failure("the kernel refused to mount on \(mountpoint) (see the message above).")
        case .loopFailed:
            .failure("cannot start the FUSE request loop.")
        }
    }
}
