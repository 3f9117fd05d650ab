import DaemonCore
import PhotoCatalog

/// The daemon's access log: the queue the READ path records into and the flusher that
/// writes it to the catalog (`photofs mount --log-retention`, `--no-access-log`).
enum AccessLogging {
    /// Starts the flusher (pruning old entries first) and returns it, or nil when the log
    /// is off or the catalog cannot be written (said once in the log).
    static func start(arguments: ParsedArguments, catalog: Catalog, logger: Logger) throws(CLIError) -> AccessLogFlusher? {
        let retention = try AccessLogArguments.retention(arguments.value("log-retention"))
        if arguments.flag("no-access-log") {
            logger.info("access log off (--no-access-log): reads are not recorded")
            return nil
        }
        if catalog.isReadOnly {
            logger.warning("access log off: the catalog cannot be written")
            return nil
        }
        let flusher = AccessLogFlusher(
            queue: AccessQueue(), store: CatalogAccessLogStore(catalog: catalog), retentionNanoseconds: retention,
            log: { logger.warning($0) })
        flusher.start()
        return flusher
    }
}
