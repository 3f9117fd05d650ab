import SystemKit

/// A new catalog that an index run fills while it is still a private file beside its path,
/// named only once it is complete.
///
/// Until `publish`, no other process can open it (its name is private, see
/// `CatalogCreation`), so it is written with no journal and no sync at all: no WAL to
/// write and copy back, no checkpoint, no sync per batch. A crash or an error midway
/// leaves nothing at the path, only a private file that `discard` or the next open of
/// the catalog removes; the next index run starts again. `publish` switches the file to
/// WAL, syncs it once, links it into place and syncs the directory, as `CatalogCreation`
/// does for an empty catalog. A catalog that another process made at the path meanwhile
/// wins: this one is thrown away, and the caller indexes into that one.
public struct NewCatalog: Sendable {
    /// Where the catalog is to live.
    public let path: String
    /// The catalog being filled: use it only until `publish` or `discard`.
    public let catalog: Catalog
    private let building: String

    /// Starts a new catalog for `path` (creating missing parent directories, mode 0700),
    /// tied to `library` when given; nil when something is at the path already or the
    /// directory cannot take a private file (then `Catalog.open` opens or creates it in
    /// place, and says what is wrong).
    public static func begin(at path: String, library: [UInt8]?) throws(CatalogError) -> NewCatalog? {
        try FileSystem.createParentDirectories(of: path)
        CatalogCreation.removeLeftovers(of: path)
        guard (try? FileStatus.ofLink(path: path)) == nil, let building = CatalogCreation.makePrivateFile(beside: path) else {
            return nil
        }
        do throws(CatalogError) {
            return NewCatalog(path: path, catalog: try Catalog.openBuilding(at: building, library: library), building: building)
        } catch {
            CatalogCreation.removeFiles(of: building)
            throw error
        }
    }

    /// Makes the filled catalog durable and gives it its name. True when it became the
    /// catalog at `path`; false when another process made one there meanwhile (this one
    /// is removed). Either way `catalog` is closed: open the one at `path` to go on.
    public func publish() throws(CatalogError) -> Bool {
        do throws(CatalogError) {
            try catalog.finishBuilding()
            try CatalogCreation.synchronize(building, directory: false)
        } catch {
            discard()
            throw error
        }
        return try CatalogCreation.publish(building, at: path)
    }

    /// Closes the catalog being filled and removes its private file: nothing is left at
    /// or beside the path.
    public func discard() {
        catalog.close()
        CatalogCreation.removeFiles(of: building)
    }
}
