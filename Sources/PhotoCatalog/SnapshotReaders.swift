import Dispatch
import PhotoCore

/// Extra read-only connections that read parts of the `assets` table on other threads, at
/// the very catalog state the catalog's own connection reads: a full read of a million
/// rows spends most of its time in SQLite and in decoding rows, and splits evenly by id.
///
/// SQLite here is built without `sqlite3_snapshot_open`, so the readers cannot be told to
/// read the main connection's WAL snapshot. Instead each reader notes its `data_version`
/// before the main connection starts its read transaction and again once its own has
/// started: unchanged means no other connection committed in between, so both read the
/// same state. When one moved, the readers are dropped and the main connection reads
/// everything alone.
final class SnapshotReaders {
    /// The readers, each in a read transaction at the main connection's state once `join` returned them.
    private var readers: [Database]
    private var versions: [Int64?]

    /// Opens `count` readers beside `db`, before `db` starts its read transaction. A
    /// reader that cannot be opened is left out (the read is split in fewer parts).
    init(beside db: Database, count: Int) {
        var readers: [Database] = []
        var versions: [Int64?] = []
        for _ in 0..<count {
            guard let reader = try? db.openReader(), let version = try? reader.scalarInt("PRAGMA data_version") else { continue }
            readers.append(reader)
            versions.append(version)
        }
        self.readers = readers
        self.versions = versions
    }

    /// The readers, each now in a read transaction (it ends when the reader is closed, with
    /// the last reference to it) that sees what the main connection's
    /// (started after `init`, still open) sees; empty when that cannot be shown.
    func join() -> [Database] {
        for (reader, version) in zip(readers, versions) {
            do throws(CatalogError) {
                try reader.execute("BEGIN")
                // Starts the read transaction and says whether anything was committed since `init`.
                guard try reader.scalarInt("PRAGMA data_version") == version else { return drop() }
            } catch {
                return drop()
            }
        }
        return readers
    }

    private func drop() -> [Database] {
        for reader in readers { try? reader.execute("COMMIT") }
        readers = []
        return []
    }
}

extension AssetRows {
    /// Every asset, read in parts at once, one per connection: the first part on `db`,
    /// one on each of `readers`; all of them must read the same catalog state
    /// (`SnapshotReaders`). See `assets(in:ids:reusing:previousByID:cameras:)` for what is
    /// shared with `previous`. The assets come in the order `ChunkedArray(joining:)` gives
    /// the parts' (in id order when no reader is given): the same for the same catalog.
    static func all(in db: Database, readers: [Database] = [], reusing previous: ChunkedArray<Asset> = []) throws(CatalogError)
        -> ChunkedArray<Asset>
    {
        var previousByID: [AssetID: Int32] = [:]
        previousByID.reserveCapacity(previous.count)
        for position in previous.indices { previousByID[previous[position].id] = Int32(truncatingIfNeeded: position) }
        let connections = [db] + readers
        guard connections.count > 1 else {
            return try assets(in: db, ids: IDRange(lower: nil, upper: nil), reusing: previous, previousByID: previousByID, cameras: nil)
        }
        let parts = zip(connections, IDRange.split(into: connections.count)).map { PartRead(db: $0, range: $1) }
        let cameras = SharedCameras()
        let previousByIDRead = previousByID
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            let part = parts[index]
            part.result = Result { () throws(CatalogError) in
                try assets(in: part.db, ids: part.range, reusing: previous, previousByID: previousByIDRead, cameras: cameras)
            }
        }
        var read: [ChunkedArray<Asset>] = []
        // `concurrentPerform` returns once every part ran: each has its result.
        for part in parts { read.append(try part.result!.get()) }
        return ChunkedArray(joining: read)
    }
}

/// One part of a split read: its connection, its range of ids, and what it read.
///
/// Each is used by one thread at a time (its iteration of `concurrentPerform`, then the
/// caller once that returned), which is why it may cross threads with its connection.
private final class PartRead: @unchecked Sendable {
    let db: Database
    let range: IDRange
    var result: Result<ChunkedArray<Asset>, CatalogError>?

    init(db: Database, range: IDRange) {
        self.db = db
        self.range = range
    }
}
