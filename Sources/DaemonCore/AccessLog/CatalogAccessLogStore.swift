import PhotoCatalog
import PhotoCore

/// The catalog as the access log flusher's store.
public struct CatalogAccessLogStore: AccessLogStore {
    let catalog: Catalog

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    public func add(_ entries: [AccessLogEntry]) throws(AccessLogStoreError) {
        do throws(CatalogError) {
            try catalog.addAccessLog(entries)
        } catch {
            throw AccessLogStoreError(error.description)
        }
    }

    public func prune(before nanoseconds: Int64) throws(AccessLogStoreError) -> Int {
        do throws(CatalogError) {
            return try catalog.pruneAccessLog(before: nanoseconds)
        } catch {
            throw AccessLogStoreError(error.description)
        }
    }
}
