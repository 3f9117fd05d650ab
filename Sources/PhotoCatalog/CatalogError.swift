import SystemKit

/// Why a catalog operation failed.
///
/// Messages name files and SQLite's own words; they never contain asset metadata such as
/// coordinates.
public enum CatalogError: Error, Hashable, Sendable {
    /// The database file could not be opened or created.
    case openFailed(path: String, message: String)
    /// A directory for the catalog could not be created (errno).
    case cannotCreateDirectory(path: String, errno: Errno)
    /// The file is not a SQLite database or is damaged.
    case corrupt(path: String, message: String)
    /// The catalog was written by a newer photofs (its schema version is higher than ours).
    case schemaTooNew(found: Int, supported: Int)
    /// SQLite reported an error (primary or extended result code and message).
    case sqlite(code: Int32, message: String)
    /// Another process holds the catalog's write lock longer than the busy timeout.
    case busy(message: String)
    /// The catalog belongs to another library than the one given.
    case libraryMismatch(stored: String, given: String)
    /// The catalog would lie inside the library, which photofs never writes.
    case catalogInsideLibrary(catalog: String, library: String)
    /// A stored value cannot be decoded (column and what was wrong).
    case badStoredValue(column: String, detail: String)
    /// An app's grants name an app that the new access state does not contain.
    case grantsForUnknownApp(String)
    /// An app's grant list names the same asset twice.
    case duplicateGrant(app: String, asset: String)
    /// The catalog can be read but not written (a read-only file system, or no write
    /// permission on the file or its directory).
    case readOnly(path: String)
    /// A read-only catalog needs its schema upgraded first, which needs write access.
    case readOnlyNeedsUpgrade(path: String, found: Int, current: Int)
}

extension CatalogError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .openFailed(let path, let message): "cannot open the catalog \(path): \(message)"
        case .cannotCreateDirectory(let path, let errno): "cannot create the directory \(path) (errno \(errno.rawValue))"
        case .corrupt(let path, let message): "the catalog \(path) is damaged or not a photofs catalog: \(message)"
        case .schemaTooNew(let found, let supported):
            "the catalog has schema version \(found) but this photofs understands up to \(supported); use a newer photofs"
        case .sqlite(let code, let message): "SQLite error \(code): \(message)"
        case .busy(let message): "the catalog is locked by another process: \(message)"
        case .libraryMismatch(let stored, let given): "the catalog belongs to the library \(stored), not \(given)"
        case .catalogInsideLibrary(let catalog, let library):
            "the catalog \(catalog) would lie inside the library \(library), which photofs never writes"
        case .badStoredValue(let column, let detail): "the catalog holds a bad value in \(column): \(detail)"
        case .grantsForUnknownApp(let app): "grants name the unknown app \(app)"
        case .duplicateGrant(let app, let asset): "the app \(app) is granted \(asset) twice"
        case .readOnly(let path):
            "the catalog \(path) can be read but not written (it is on a read-only file system, or you may not write it or its "
                + "directory); reading commands work, changes need a writable catalog: remount it read-write, fix its permissions, "
                + "or copy it somewhere writable and pass --catalog"
        case .readOnlyNeedsUpgrade(let path, let found, let current):
            "the catalog \(path) has schema version \(found) and must be upgraded to \(current) before use, which needs write "
                + "access; it cannot be written (a read-only file system, or no write permission): open it once where it can be written"
        }
    }
}
