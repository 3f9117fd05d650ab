import CatalogTestSupport
import PhotoCore
import Testing

@testable import PhotoCatalog

@Suite("Catalog app representation")
struct CatalogRepresentationTests {
    @Test func representationAndQualitySurviveAReopen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let apps = [
            "web": App(name: "web", representation: .compatible, quality: 90),
            "plain": App(name: "plain", locationPolicy: .keep),
        ]
        try Catalog.open(at: path).replaceAccessState(apps: apps, grants: [:])
        #expect(try Catalog.open(at: path).apps() == apps)
        var changed = apps
        changed["web"]?.representation = .original
        changed["web"]?.quality = 40
        try Catalog.open(at: path).replaceAccessState(apps: changed, grants: [:])
        #expect(try Catalog.open(at: path).apps() == changed)
    }

    @Test func appsFromBeforeTheStepAreServedOriginals() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let db = try Database(path: path)
        // Up to the step before the plan table, whose SQL needs a function only `Schema.migrate` registers.
        for step in Schema.migrations.prefix(Schema.planTableVersion - 1) { try db.execute(step) }
        try db.execute("PRAGMA user_version=\(Schema.planTableVersion - 1)")
        try db.execute("INSERT INTO apps(name, filter, location, selection_limit, uid) VALUES('old', '', 'coarse', 0, NULL)")
        try Schema.migrate(db)
        let catalog = try Catalog.open(at: path)
        #expect(try catalog.apps() == ["old": App(name: "old", locationPolicy: .coarse)])
    }

    @Test func aBadStoredValueIsAClearError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        try Catalog.open(at: path).replaceAccessState(apps: ["web": App(name: "web")], grants: [:])
        let db = try Database(path: path)
        try db.execute("UPDATE apps SET representation = 'sepia'")
        #expect(throws: CatalogError.self) { try Catalog.open(at: path).apps() }
    }
}
