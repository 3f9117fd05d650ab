// A prepared SQLite statement with typed binds and column reads. Indexes are 1-based for
// binds (as in SQLite) and 0-based for columns.
import CSQLite

/// One prepared statement, owned and cached by its `Database`.
final class Statement {
    private let raw: OpaquePointer
    private unowned let database: Database

    init(_ raw: OpaquePointer, database: Database) {
        self.raw = raw
        self.database = database
    }

    deinit { sqlite3_finalize(raw) }

    /// Makes the statement ready to run again and forgets its bindings.
    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    // MARK: binds

    func bind(_ index: Int32, _ value: Int64) throws(CatalogError) {
        try check(sqlite3_bind_int64(raw, index, value))
    }

    func bind(_ index: Int32, _ value: Int) throws(CatalogError) {
        try check(sqlite3_bind_int64(raw, index, Int64(value)))
    }

    func bind(_ index: Int32, _ value: Double) throws(CatalogError) {
        try check(sqlite3_bind_double(raw, index, value))
    }

    func bind(_ index: Int32, _ value: Bool) throws(CatalogError) {
        try check(sqlite3_bind_int64(raw, index, value ? 1 : 0))
    }

    /// Binds text with its exact length (a NUL inside does not cut it short).
    func bind(_ index: Int32, _ value: String) throws(CatalogError) {
        var value = value
        let rc = value.withUTF8 { utf8 -> Int32 in
            // A nil pointer would bind NULL; an empty string must stay an empty string.
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                return sqlite3_bind_text(raw, index, "", 0, photofs_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text(raw, index, $0, Int32(utf8.count), photofs_sqlite_transient())
            }
        }
        try check(rc)
    }

    /// Binds bytes as a BLOB (an empty array is an empty BLOB, not NULL).
    func bind(_ index: Int32, _ value: [UInt8]) throws(CatalogError) {
        let rc = value.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return sqlite3_bind_zeroblob(raw, index, 0) }
            return sqlite3_bind_blob(raw, index, base, Int32(bytes.count), photofs_sqlite_transient())
        }
        try check(rc)
    }

    func bindNull(_ index: Int32) throws(CatalogError) {
        try check(sqlite3_bind_null(raw, index))
    }

    /// Binds the value, or NULL when it is nil.
    func bind(_ index: Int32, _ value: Int64?) throws(CatalogError) {
        if let value { try bind(index, value) } else { try bindNull(index) }
    }

    func bind(_ index: Int32, _ value: Int?) throws(CatalogError) {
        if let value { try bind(index, Int64(value)) } else { try bindNull(index) }
    }

    func bind(_ index: Int32, _ value: Double?) throws(CatalogError) {
        if let value { try bind(index, value) } else { try bindNull(index) }
    }

    func bind(_ index: Int32, _ value: String?) throws(CatalogError) {
        if let value { try bind(index, value) } else { try bindNull(index) }
    }

    // MARK: running

    /// Advances to the next row: true when a row is ready, false when done.
    func step() throws(CatalogError) -> Bool {
        let rc = sqlite3_step(raw)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.lastError(rc)
            sqlite3_reset(raw)
            throw error
        }
    }

    /// Runs a statement that returns no rows, then resets it.
    func run() throws(CatalogError) {
        defer { reset() }
        while try step() {}
    }

    // MARK: columns

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }

    func int(_ column: Int32) -> Int { Int(truncatingIfNeeded: sqlite3_column_int64(raw, column)) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(raw, column) }

    /// The column as text ("" for NULL); invalid UTF-8 is repaired with U+FFFD.
    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(raw, column) else { return "" }
        let count = Int(sqlite3_column_bytes(raw, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column as bytes ([] for NULL or an empty BLOB).
    func blob(_ column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(raw, column) else { return [] }
        let count = Int(sqlite3_column_bytes(raw, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column's text bytes, lent to `body` without a copy (valid only inside it).
    func withTextBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        guard let pointer = sqlite3_column_text(raw, column) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(raw, column))))
    }

    /// The column's BLOB bytes, lent to `body` without a copy (valid only inside it).
    func withBlobBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        guard let pointer = sqlite3_column_blob(raw, column) else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return body(UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(raw, column))))
    }

    /// The column as an integer, nil for NULL. NULL reads as 0, so a value other than 0 costs
    /// one call into SQLite, not two (a catalog read makes millions of them).
    func optionalInt64(_ column: Int32) -> Int64? {
        let value = int64(column)
        return value != 0 || !isNull(column) ? value : nil
    }
    func optionalInt(_ column: Int32) -> Int? { optionalInt64(column).map { Int(truncatingIfNeeded: $0) } }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    private func check(_ rc: Int32) throws(CatalogError) {
        guard rc == SQLITE_OK else { throw database.lastError(rc) }
    }
}
