import PhotoCatalog
import PhotoCore

extension LibraryState {
    /// What an index run that changed the catalog does to a running mount (the watcher's
    /// runs and the startup scan's): reload the changed assets and install their views,
    /// which publishes the change (what the kernel must forget, what to prepare, the memory
    /// to give back) to the state's sink.
    public func indexRunHandler(log: DaemonLog) -> LibraryWatcher.CatalogChangeHandler {
        { [self] summary throws(CatalogError) in
            log.debug(
                "library changed: \(summary.new) new, \(summary.changed) changed, \(summary.moved) moved, \(summary.removed) removed "
                    + "(indexed in \(Int(summary.seconds * 1000)) ms)")
            var clock = PhaseClock()
            try reload(changed: summary.changedIDs)
            clock.lap("catalog, views and invalidation")
            log.debug("reload: " + clock.summary)
        }
    }
}
