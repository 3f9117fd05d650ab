import PhotoCore
import Synchronization

/// The SQLite store of one library: assets, failures, apps, grants and settings.
///
/// One connection behind a lock serves every thread (a full read of the assets adds
/// read-only connections for the length of the read, see `SnapshotReaders`); the FUSE hot
/// path never comes here but reads a `LibrarySnapshot`. The catalog runs in WAL mode. Every write is a
/// transaction that is in the WAL file when it returns, so it survives `kill -9` of the
/// process: index writes use `synchronous=NORMAL` (a power loss may lose the last
/// batches, which the next index run redoes); access-state writes use
/// `accessDurability`, by default `synchronous=FULL` (fsynced: a grant that was reported
/// saved survives power loss too). Other processes may open the same file; writers wait
/// up to the busy timeout for each other.
public final class Catalog: Sendable {
    /// The catalog file.
    public let path: String
    /// How hard apps and grants are pushed to disk before `replaceAccessState` returns.
    public let accessDurability: Durability
    /// What other users may read of this catalog, one sentence each (see `CatalogFileModes`);
    /// empty when it is private.
    public let exposure: [String]
    /// Opened for reading only: it could not be written (see `open`); every write throws
    /// `CatalogError.readOnly`.
    public let isReadOnly: Bool
    let connection: Mutex<Connection>

    /// The connection and what is mirrored from it, guarded together.
    struct Connection: ~Copyable {
        let db: Database
        /// The apps and grants as last read or written, so a change is diffed without
        /// reading every grant back.
        var access: AccessMirror
        /// SQLite's `data_version` when every asset was last read (`snapshot`): when it
        /// moved, another process wrote assets, and only a full read is up to date.
        var assetsDataVersion: Int64?
    }

    private init(path: String, accessDurability: Durability, readOnly: Bool = false, db: consuming sending Connection) {
        self.path = path
        self.accessDurability = accessDurability
        self.isReadOnly = readOnly
        self.exposure = CatalogFileModes.exposure(of: path)
        self.connection = Mutex(db)
    }

    /// Opens the catalog at `path`, creating the file (mode 0600, and missing parent
    /// directories, mode 0700) and migrating the schema as needed. A new catalog is made
    /// whole beside its path and then named (see `CatalogCreation`).
    ///
    /// When `library` is given, the catalog is tied to that library's absolute path: a
    /// new catalog records it, an existing one must name the same library.
    /// `accessDurability` `.processCrash` trades power-loss safety of grants for speed
    /// (no fsync per picker write); a crash of the process still loses nothing.
    ///
    /// A catalog that exists but cannot be written (a read-only file system, no write
    /// permission on it or its directory) is opened for reading only: listing and showing
    /// work, and the first write says what is wrong (`CatalogError.readOnly`).
    public static func open(at path: String, library: [UInt8]? = nil, accessDurability: Durability = .powerLoss) throws(CatalogError)
        -> Catalog
    {
        do throws(CatalogError) {
            return try openWritable(at: path, library: library, accessDurability: accessDurability)
        } catch {
            guard CatalogFileModes.existsButIsNotWritable(path) else { throw error }
            return try openReadOnly(at: path, library: library, accessDurability: accessDurability)
        }
    }

    private static func openReadOnly(at path: String, library: [UInt8]?, accessDurability: Durability) throws(CatalogError) -> Catalog {
        let db: Database
        do throws(CatalogError) {
            db = try Database(path: path, readOnly: .readOnly)
        } catch {
            db = try Database(path: path, readOnly: .immutable)
        }
        let found = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
        guard found <= Schema.currentVersion else { throw .schemaTooNew(found: found, supported: Schema.currentVersion) }
        guard found == Schema.currentVersion else { throw .readOnlyNeedsUpgrade(path: path, found: found, current: Schema.currentVersion) }
        if let library, let stored = try Self.setting(Settings.libraryRoot, in: db), stored != library {
            throw .libraryMismatch(stored: LibraryPath(bytes: stored).display, given: LibraryPath(bytes: library).display)
        }
        let access = try AccessMirror.load(from: db)
        return Catalog(path: path, accessDurability: accessDurability, readOnly: true, db: Connection(db: db, access: access))
    }

    private static func openWritable(at path: String, library: [UInt8]?, accessDurability: Durability) throws(CatalogError) -> Catalog {
        try FileSystem.createParentDirectories(of: path)
        if !(try CatalogCreation.makeIfMissing(at: path, library: library)) {
            try CatalogFileModes.createPrivately(path)
        }
        let db = try Database(path: path)
        try Schema.migrate(db)
        if let library {
            try db.transaction { () throws(CatalogError) in
                if let stored = try Self.setting(Settings.libraryRoot, in: db) {
                    guard stored == library else {
                        throw .libraryMismatch(stored: LibraryPath(bytes: stored).display, given: LibraryPath(bytes: library).display)
                    }
                } else {
                    try Self.setSetting(Settings.libraryRoot, to: library, in: db)
                }
            }
        }
        let access = try AccessMirror.load(from: db)
        return Catalog(path: path, accessDurability: accessDurability, db: Connection(db: db, access: access))
    }

    /// Opens `building`, an empty private file that only this process knows of, as a new
    /// catalog to fill before it has its name (see `NewCatalog`): the schema and the library
    /// root are written, with no journal and no sync at all (`Database.init(building:)`).
    static func openBuilding(at building: String, library: [UInt8]?) throws(CatalogError) -> Catalog {
        let db = try Database(building: building)
        try Schema.migrate(db)
        if let library {
            try db.transaction { () throws(CatalogError) in try Self.setSetting(Settings.libraryRoot, to: library, in: db) }
        }
        let access = try AccessMirror.load(from: db)
        return Catalog(path: building, accessDurability: .powerLoss, db: Connection(db: db, access: access))
    }

    /// Closes the connection now: every later use of this catalog throws.
    func close() {
        connection.withLock { $0.db.close() }
    }

    /// Whether this catalog is a private file being filled (`openBuilding`): nothing else
    /// may open it, so it is written with no journal and no sync.
    var isBuilding: Bool { connection.withLock { $0.db.isBuilding } }

    /// Switches a catalog from `openBuilding` to WAL, as every catalog runs, and closes its
    /// connection, so SQLite folds its WAL into the file and nothing is left open under the
    /// private name: every later use of this catalog throws.
    func finishBuilding() throws(CatalogError) {
        try connection.withLock { (c: inout Connection) throws(CatalogError) in
            defer { c.db.close() }
            try c.db.finishBuilding()
        }
    }

    /// The absolute path of the library this catalog describes, when recorded.
    public var libraryRoot: [UInt8]? {
        get throws(CatalogError) {
            try connection.withLock { (c: inout Connection) throws(CatalogError) -> [UInt8]? in
                try Self.setting(Settings.libraryRoot, in: c.db)
            }
        }
    }

    /// The schema version of the open file.
    public var schemaVersion: Int {
        get throws(CatalogError) {
            try connection.withLock { (c: inout Connection) throws(CatalogError) -> Int in
                Int(try c.db.scalarInt("PRAGMA user_version") ?? 0)
            }
        }
    }

    // MARK: settings

    enum Settings {
        static let libraryRoot = "library_root"
    }

    static func setting(_ key: String, in db: Database) throws(CatalogError) -> [UInt8]? {
        let s = try db.statement("SELECT value FROM settings WHERE key = ?1")
        defer { s.reset() }
        try s.bind(1, key)
        return try s.step() ? s.blob(0) : nil
    }

    static func setSetting(_ key: String, to value: [UInt8], in db: Database) throws(CatalogError) {
        let s = try db.statement("INSERT INTO settings(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        try s.bind(1, key)
        try s.bind(2, value)
        try s.run()
    }
}
