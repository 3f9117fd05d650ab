import CatalogTestSupport
import Glibc
import PhotoCore
import Testing

@testable import PhotoCatalog

/// The catalog holds every coordinate and grant: it is created private, its WAL and shared
/// memory files too, and an existing catalog others may read is reported, never changed.
@Suite("catalog file modes")
struct CatalogFileModeTests {
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    @Test func aNewCatalogIsPrivateWithItsWALAndDirectories() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A permissive umask must not make it readable either.
        let previous = umask(0o002)
        defer { umask(previous) }
        let path = directory.string + "/new/nested/catalog.sqlite"
        let catalog = try Catalog.open(at: path, library: Array("/photos".utf8))
        try catalog.replaceAccessState(apps: ["a": App(name: "a")], grants: [:])
        #expect(Self.mode(path) == 0o600)
        #expect(Self.mode(path + "-wal") == 0o600)
        #expect(Self.mode(path + "-shm") == 0o600)
        #expect(Self.mode(directory.string + "/new") == 0o700)
        #expect(Self.mode(directory.string + "/new/nested") == 0o700)
        #expect(catalog.exposure.isEmpty, "\(catalog.exposure)")
    }

    @Test func anExistingReadableCatalogIsReportedAndLeftAsItIs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.string + "/catalog.sqlite"
        do {
            let catalog = try Catalog.open(at: path, library: Array("/photos".utf8))
            try catalog.replaceAccessState(apps: ["a": App(name: "a")], grants: [:])
        }
        chmod(path, 0o644)
        chmod(directory.string, 0o755)
        let reopened = try Catalog.open(at: path, library: Array("/photos".utf8))
        #expect(reopened.exposure.contains { $0.contains(path) && $0.contains("644") }, "\(reopened.exposure)")
        #expect(reopened.exposure.contains { $0.contains("directory") && $0.contains("755") }, "\(reopened.exposure)")
        #expect(Self.mode(path) == 0o644, "an existing catalog's mode is the user's")
        #expect(Self.mode(directory.string) == 0o755)
    }
}
