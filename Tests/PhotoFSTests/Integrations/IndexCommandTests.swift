import Foundation
import Glibc
import Testing

/// `photofs index` into a catalog that does not exist yet fills it privately and names it
/// when it is complete (see `NewCatalog`); what comes after (`--verify`, the next index,
/// other commands) finds an ordinary catalog at the path.
@Suite("index command", .serialized, .enabled(if: DaemonProcess.binaryExists))
struct IndexCommandTests {
    static let b = DaemonProcess.binary

    /// A new directory with a generated library of `count` photos in `library/`, and where
    /// its catalog is to go (`catalogs/c.sqlite`, not made yet).
    private static func library(_ name: String, count: Int) -> (directory: String, library: String, catalog: String) {
        let directory = temporaryDirectory(name)
        let library = directory + "/library"
        #expect(run([b, "generate", "--count", String(count), "--seed", "5", library]).status == 0)
        return (directory, library, directory + "/catalogs/c.sqlite")
    }

    @Test func aNewCatalogIsNamedWholeAndVerifiedAndIndexedAgain() throws {
        let (directory, library, catalog) = Self.library("photofs-index-new", count: 12)
        defer { run(["/bin/rm", "-rf", directory]) }
        let first = run([Self.b, "index", "--verify", "--catalog", catalog, library])
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("12 new, 0 changed"), "\(first.output)")
        #expect(first.output.contains("verified 12 files"), "\(first.output)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/catalogs")) ?? []
        #expect(names == ["c.sqlite"], "\(names)")
        var status = stat()
        #expect(stat(catalog, &status) == 0 && status.st_mode & 0o777 == 0o600)
        let again = run([Self.b, "index", "--catalog", catalog, library])
        #expect(again.status == 0 && again.output.contains("0 new, 0 changed, 0 moved, 0 removed"), "\(again.output)")
        #expect(again.output.contains("12 unchanged"), "\(again.output)")
        let listing = run([Self.b, "ls", "--json", "--catalog", catalog])
        let objects = try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]] ?? []
        #expect(objects.count == 12)
    }

    /// A library larger than a private first run takes is indexed in place, in committed
    /// batches (so a run stopped halfway keeps what it did), over the walk made already.
    @Test func aLargeFirstIndexIsMadeInPlace() throws {
        let (directory, library, catalog) = Self.library("photofs-index-large", count: 3)
        defer { run(["/bin/rm", "-rf", directory]) }
        let other = library + "/other files"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        // More files than a private run takes: empty ones, which the index records as unreadable.
        for index in 0..<20_001 {
            #expect(FileManager.default.createFile(atPath: other + "/f\(index).bin", contents: nil))
        }
        let first = run([Self.b, "index", "--catalog", catalog, library])
        #expect(first.status == 0, "\(first.output)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/catalogs")) ?? []
        #expect(!names.contains { $0.contains(".making-") }, "\(names)")
        let listing = run([Self.b, "ls", "--json", "--catalog", catalog])
        let objects = try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]] ?? []
        #expect(objects.count == 3, "\(first.output)")
        let again = run([Self.b, "index", "--catalog", catalog, library])
        #expect(again.status == 0 && again.output.contains("0 new, 0 changed, 0 moved, 0 removed"), "\(again.output)")
    }
}
