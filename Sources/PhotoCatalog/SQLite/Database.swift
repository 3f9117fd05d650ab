// One connection to one SQLite file: the catalog's own, or a reader beside it
// (`openReader`). Supports: WAL journal, foreign keys, a busy timeout, typed statements,
// nested-free transactions with rollback on throw, and a per-transaction durability
// choice. Does not support: several threads at once (the owner serialises access, see
// `Catalog`), savepoints, or in-memory databases shared between connections.
import CSQLite

/// How hard a transaction's commit is pushed to the disk.
///
/// The catalog runs in WAL mode. With `synchronous=NORMAL` a committed transaction is in
/// the WAL file (in the kernel's page cache) when `COMMIT` returns: it survives `kill -9`
/// of the process, and only a power loss or kernel crash before the next checkpoint can
/// lose it. `FULL` also fsyncs the WAL at every commit, so it survives power loss too.
public enum Durability: Sendable {
    /// Survives process crashes (WAL, `synchronous=NORMAL`): bulk index writes.
    case processCrash
    /// Survives power loss as well (`synchronous=FULL`): grants and apps.
    case powerLoss
}

/// One open SQLite connection. Not thread-safe: the owner serialises access.
final class Database {
    /// The path it was opened with, for messages.
    let path: String
    private let handle: OpaquePointer
    /// How it was opened for reading only, nil when it may write.
    private let readOnlyMode: ReadOnlyMode?
    /// Prepared statements by SQL text, reused so the hot paths do not re-parse.
    private var cache: [String: Statement] = [:]
    private var currentSynchronous: Durability = .processCrash
    /// Made in a private file nobody else opens yet (see `init(building:)`): no journal and
    /// no sync, whatever a transaction asks for.
    let isBuilding: Bool
    /// Closed by `close()`: every later statement throws.
    private var isClosed = false

    /// Opens (creating if needed) the database at `path` in WAL mode. `readOnly` opens an
    /// existing one for reading only, as it is (see `Catalog.open`): `immutable` when
    /// not even SQLite's shared-memory file can be made (a read-only file system).
    convenience init(path: String, busyTimeoutMilliseconds: Int32 = 5_000, readOnly: ReadOnlyMode? = nil) throws(CatalogError) {
        try self.init(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, readOnly: readOnly, building: false)
    }

    /// Opens the empty file at `building`, which only this connection knows of, to fill it
    /// with no rollback journal and no sync at all (`journal_mode=OFF`, `synchronous=OFF`):
    /// a crash leaves a file to throw away, never a catalog. `finishBuilding` switches it to
    /// WAL; the caller makes it durable and gives it its name (see `CatalogCreation`).
    convenience init(building path: String) throws(CatalogError) {
        try self.init(path: path, busyTimeoutMilliseconds: 0, readOnly: nil, building: true)
    }

    private init(path: String, busyTimeoutMilliseconds: Int32, readOnly: ReadOnlyMode?, building: Bool) throws(CatalogError) {
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        var name = path
        if let readOnly {
            flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
            name = "file:" + Self.uriPath(path) + (readOnly == .immutable ? "?immutable=1" : "?mode=ro")
        }
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            throw .openFailed(path: path, message: message)
        }
        self.path = path
        self.handle = db
        self.readOnlyMode = readOnly
        self.isBuilding = building
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        do throws(CatalogError) {
            if readOnly != nil {
                // Reading as it is: the first read tells whether it is a database at all.
                _ = try scalarInt("PRAGMA user_version")
                return
            }
            if building {
                try execute("PRAGMA synchronous=OFF")
                let mode = try scalarText("PRAGMA journal_mode=OFF")
                guard mode?.lowercased() == "off" else {
                    throw CatalogError.openFailed(path: path, message: "cannot turn the journal off (got \(mode ?? "nothing"))")
                }
                try execute("PRAGMA foreign_keys=ON")
                return
            }
            // The first statement to touch the file tells whether it is a database at all.
            let mode = try scalarText("PRAGMA journal_mode=WAL")
            guard mode?.lowercased() == "wal" else {
                throw CatalogError.openFailed(path: path, message: "cannot switch to WAL journal mode (got \(mode ?? "nothing"))")
            }
            try execute("PRAGMA foreign_keys=ON")
            try execute("PRAGMA synchronous=NORMAL")
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// Closes the connection now instead of when the last reference goes (a new catalog is
    /// closed before it gets its name, see `NewCatalog`); every later use throws.
    func close() {
        guard !isClosed else { return }
        cache.removeAll()
        sqlite3_close_v2(handle)
        isClosed = true
    }

    private func ensureOpen() throws(CatalogError) {
        guard !isClosed else { throw .openFailed(path: path, message: "the connection was closed") }
    }

    /// Switches a database opened with `init(building:)` to WAL, as every catalog runs; with
    /// `synchronous=OFF` nothing is synced.
    func finishBuilding() throws(CatalogError) {
        precondition(isBuilding, "only a database being built switches its journal here")
        let mode = try scalarText("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw CatalogError.openFailed(path: path, message: "cannot switch to WAL journal mode (got \(mode ?? "nothing"))")
        }
    }

    /// Another connection to the same file that only reads (opened as this one was when this
    /// one only reads): for reading part of a large table on another thread.
    func openReader() throws(CatalogError) -> Database {
        try Database(path: path, readOnly: readOnlyMode ?? .readOnly)
    }

    /// Runs SQL that returns no rows (several statements allowed, no parameters).
    func execute(_ sql: String) throws(CatalogError) {
        try ensureOpen()
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw error(code: rc, message: text)
        }
    }

    /// A prepared statement for `sql`, reset and with its bindings cleared.
    func statement(_ sql: String) throws(CatalogError) -> Statement {
        try ensureOpen()
        if let cached = cache[sql] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw lastError(rc) }
        let statement = Statement(raw, database: self)
        cache[sql] = statement
        return statement
    }

    /// The first column of the first row as text (pragmas).
    func scalarText(_ sql: String) throws(CatalogError) -> String? {
        let s = try statement(sql)
        defer { s.reset() }
        guard try s.step() else { return nil }
        return s.isNull(0) ? nil : s.text(0)
    }

    /// The first column of the first row as an integer.
    func scalarInt(_ sql: String) throws(CatalogError) -> Int64? {
        let s = try statement(sql)
        defer { s.reset() }
        guard try s.step() else { return nil }
        return s.isNull(0) ? nil : s.int64(0)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; rolls back when it throws.
    ///
    /// IMMEDIATE takes the write lock at once, so two writers wait on the busy timeout at
    /// the start instead of failing half-way with SQLITE_BUSY.
    func transaction<T>(durability: Durability = .processCrash, _ body: () throws(CatalogError) -> T) throws(CatalogError) -> T {
        if durability != currentSynchronous, !isBuilding {
            // synchronous cannot change inside a transaction; set it for this one.
            try execute(durability == .powerLoss ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
            currentSynchronous = durability
        }
        try execute("BEGIN IMMEDIATE")
        let result: T
        do throws(CatalogError) {
            result = try body()
        } catch {
            rollback()
            throw error
        }
        do throws(CatalogError) {
            try execute("COMMIT")
        } catch {
            rollback()
            throw error
        }
        return result
    }

    private func rollback() {
        guard !isClosed else { return }
        // Reset every statement first: an unfinished SELECT would keep the read open.
        for statement in cache.values { statement.reset() }
        if sqlite3_get_autocommit(handle) == 0 {
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
        }
    }

    /// Makes `name(...)` callable from this connection's SQL: a deterministic function of
    /// `arguments` BLOB (or NULL) values that returns an integer, computed by `body` from
    /// the bytes lent to it (nil for NULL). For migrations whose arithmetic lives in Swift.
    func defineFunction(_ name: String, arguments: Int, _ body: @escaping ([UnsafeRawBufferPointer?]) -> Int64) throws(CatalogError) {
        try ensureOpen()
        let box = Unmanaged.passRetained(SQLFunctionBody(body)).toOpaque()
        // SQLite owns the box from here, even when the call fails: it calls xDestroy then too.
        let rc = sqlite3_create_function_v2(
            handle, name, Int32(arguments), SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                let body = Unmanaged<SQLFunctionBody>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue().body
                var arguments: [UnsafeRawBufferPointer?] = []
                for index in 0..<Int(count) {
                    let value = values?[index]
                    if sqlite3_value_type(value) == SQLITE_NULL {
                        arguments.append(nil)
                    } else {
                        // Asked for first: sqlite3_value_bytes after it gives the size of that form.
                        let bytes = sqlite3_value_blob(value)
                        arguments.append(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))))
                    }
                }
                sqlite3_result_int64(context, body(arguments))
            }, nil, nil,
            { box in box.map { Unmanaged<SQLFunctionBody>.fromOpaque($0).release() } })
        guard rc == SQLITE_OK else { throw lastError(rc) }
    }

    /// The number of rows the last INSERT/UPDATE/DELETE changed.
    var changes: Int { isClosed ? 0 : Int(sqlite3_changes(handle)) }

    /// The catalog error for result code `rc`, with SQLite's message for this connection.
    func lastError(_ rc: Int32) -> CatalogError {
        error(code: rc, message: String(cString: sqlite3_errmsg(handle)))
    }

    private func error(code: Int32, message: String) -> CatalogError {
        switch code & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt(path: path, message: message)
        case SQLITE_BUSY, SQLITE_LOCKED: .busy(message: message)
        case SQLITE_READONLY: .readOnly(path: path)
        default: .sqlite(code: code, message: message)
        }
    }

    /// How a catalog that cannot be written is opened.
    enum ReadOnlyMode {
        /// Read-only, with SQLite's usual locking (its `-shm` file exists or can be made).
        case readOnly
        /// Nothing is written at all, not even a lock: for a read-only file system.
        case immutable
    }

    /// A path as the path part of a `file:` URI (`%`, `?`, `#` and every byte that is not
    /// ASCII escaped as `%XX`).
    private static func uriPath(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            if byte < 0x80 && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "?") && byte != UInt8(ascii: "#") {
                escaped.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                escaped += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return escaped
    }
}

/// The Swift body of a function defined with `Database.defineFunction`, kept alive by SQLite.
private final class SQLFunctionBody {
    let body: ([UnsafeRawBufferPointer?]) -> Int64
    init(_ body: @escaping ([UnsafeRawBufferPointer?]) -> Int64) { self.body = body }
}
