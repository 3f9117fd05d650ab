import SystemKit

/// Makes a new catalog whole in a private file beside its path and only then gives it its
/// name, so the path holds either nothing or a complete empty catalog, never a half-made
/// file, and the making costs two syncs (the file, then its directory).
///
/// Made at its path, a new catalog costs seven: the switch to WAL goes through a rollback
/// journal under `synchronous=FULL`, then the schema is a power-loss-safe transaction. Here
/// the file is filled with no journal and no sync (`Database.init(building:)`: nobody else
/// can open it), switched to WAL, synced once, and linked to the catalog's path; `link`
/// never replaces a file, so a catalog another process made meanwhile wins and this one
/// is thrown away. The directory is synced before anything is written to the catalog, so
/// a grant saved in it cannot outlive its name in a power loss.
///
/// The private file is named after the catalog, `.making-`, this process's id and a random
/// number; a file left by a process that no longer runs (a crash) is never opened and is
/// removed by the next open of the catalog.
enum CatalogCreation {
    /// What a private file's name adds to the catalog's.
    static let marker = ".making-"

    /// Makes the catalog at `path` (whose directory exists) when nothing is there. True when
    /// this call made it; false when something was there or appeared meanwhile, or when the
    /// directory cannot take a file (`Catalog.open` then opens or creates it in place,
    /// which says what is wrong).
    static func makeIfMissing(at path: String, library: [UInt8]?) throws(CatalogError) -> Bool {
        // A crash between the link and the removal of the private name leaves a second
        // name of the catalog: looked for at every open, not only at creation.
        removeLeftovers(of: path)
        guard (try? FileStatus.ofLink(path: path)) == nil else { return false }
        guard let building = try build(beside: path, library: library) else { return false }
        return try publish(building, at: path)
    }

    /// Makes a complete empty catalog (schema, library root, WAL mode) in a new private file
    /// beside `path` and syncs it; its path, or nil when the directory cannot take a file.
    static func build(beside path: String, library: [UInt8]?) throws(CatalogError) -> String? {
        guard let building = makePrivateFile(beside: path) else { return nil }
        do throws(CatalogError) {
            try Catalog.openBuilding(at: building, library: library).finishBuilding()
            // Closed: SQLite folded its WAL into the file and removed it.
            try synchronize(building, directory: false)
            return building
        } catch {
            removeFiles(of: building)
            throw error
        }
    }

    /// Creates an empty private file (mode 0600) beside `path`, named after it, this
    /// process and a random number; its path, or nil when the directory cannot take a file.
    static func makePrivateFile(beside path: String) -> String? {
        let building = path + marker + "\(CurrentProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        do throws(Errno) {
            try FileDescriptor.open(building, [.writeOnly, .create, .exclusive, .noFollow], mode: 0o600).close()
        } catch {
            return nil
        }
        return building
    }

    /// Gives the built file the name `path` unless something has it, syncs the directory
    /// and removes the private name. True when the file became the catalog.
    static func publish(_ building: String, at path: String) throws(CatalogError) -> Bool {
        defer { removeFiles(of: building) }
        do throws(Errno) {
            try SystemKit.FileSystem.link(building, to: path)
        } catch {
            if error == .fileExists { return false }
            throw .openFailed(path: path, message: "cannot give the new catalog its name: \(error)")
        }
        try synchronize(SystemKit.FileSystem.folder(of: path), directory: true)
        return true
    }

    /// Removes what dead processes' runs left beside `path` (their private names, and a
    /// second name a crash between link and removal left).
    static func removeLeftovers(of path: String) { SystemKit.FileSystem.removeLeftovers(of: path, marker: marker) }

    static func removeFiles(of building: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? SystemKit.FileSystem.remove(building + suffix) }
    }

    static func synchronize(_ path: String, directory: Bool) throws(CatalogError) {
        do throws(Errno) {
            let descriptor = try FileDescriptor.open(path, directory ? [.directory] : [.readOnly])
            try descriptor.closeAfter { () throws(Errno) in try descriptor.synchronizeData() }
        } catch {
            throw .openFailed(path: path, message: "cannot sync the new catalog: \(error)")
        }
    }
}
