import Foundation
import Glibc
import Testing

/// `photofs index` into a catalog that does not exist yet fills it privately and names it
/// when it is complete (see `NewCatalog`); what comes after (`--verify`, the next index,
/// other commands) finds an ordinary catalog at the path.
@Suite("index command", .serialized, .enabled(if: DaemonProcess.binaryExists))
struct IndexCommandTests {
    static let b = DaemonProcess.binary

    @Test func aNewCatalogIsNamedWholeAndVerifiedAndIndexedAgain() throws {
        let directory = temporaryDirectory("photofs-index-new")
        defer { run(["/bin/rm", "-rf", directory]) }
        let library = directory + "/library"
        let catalog = directory + "/catalogs/c.sqlite"
        #expect(run([Self.b, "generate", "--count", "12", "--seed", "5", library]).status == 0)
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
        let directory = temporaryDirectory("photofs-index-large")
        defer { run(["/bin/rm", "-rf", directory]) }
        let library = directory + "/library"
        let catalog = directory + "/catalogs/c.sqlite"
        #expect(run([Self.b, "generate", "--count", "3", "--seed", "5", library]).status == 0)
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
