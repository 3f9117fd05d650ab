import CatalogTestSupport
import PhotoCore
import Testing

@testable import PhotoCatalog

/// Rules, exclusions, expiries and one-time runs in the catalog: stored, read back after a
/// reopen, changed in place, and dropped with their app.
@Suite("Catalog grant terms")
struct CatalogGrantTermsTests {
    static let owner = RunOwner(pid: 99, startTicks: 1234, bootID: "5e1c0ffe-0000-4000-8000-000000000001")
    static func id(_ n: Int) -> AssetID { AssetID(String(repeating: "0", count: 11) + String(n, radix: 16))! }

    static let uploader = App(
        name: "uploader", filter: "type:image",
        rules: [
            GrantRule(filter: "folder:DCIM", grantedAtNanoseconds: 5),
            GrantRule(filter: "make:canon", grantedAtNanoseconds: 6, terms: GrantTerms(expiresAtNanoseconds: 900, once: owner)),
        ],
        exclusions: [id(1), id(2)], grantsExpireSeconds: 604_800, onceRun: owner)
    static let grants = [
        "uploader": [
            Grant(asset: id(3), grantedAtNanoseconds: 1),
            Grant(asset: id(4), grantedAtNanoseconds: 2, terms: GrantTerms(expiresAtNanoseconds: 500)),
            Grant(asset: id(5), grantedAtNanoseconds: 3, terms: GrantTerms(once: owner)),
        ]
    ]

    @Test func everyTermSurvivesAReopenAndChangesInPlace() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        try Catalog.open(at: path).replaceAccessState(apps: ["uploader": Self.uploader], grants: Self.grants)
        var catalog = try Catalog.open(at: path)
        #expect(try catalog.apps() == ["uploader": Self.uploader])
        #expect(try catalog.allGrants() == Self.grants)

        // What the daemon's timer does when the run is over and a grant expired.
        var ended = AccessState(apps: ["uploader": Self.uploader], grants: Self.grants).ending(at: 600) { $0 != Self.owner }
        try catalog.replaceAccessState(apps: ended.apps, grants: ended.grants)
        catalog = try Catalog.open(at: path)
        #expect(try catalog.apps()["uploader"]?.rules.map(\.filter) == ["folder:DCIM"])
        #expect(try catalog.apps()["uploader"]?.onceRun == nil)
        #expect(try catalog.apps()["uploader"]?.exclusions == [Self.id(1), Self.id(2)])
        #expect(try catalog.allGrants()["uploader"]?.map(\.asset) == [Self.id(3)])

        // An exclusion lifted, the default lifetime removed.
        ended.apps["uploader"]?.exclusions = [Self.id(2)]
        ended.apps["uploader"]?.grantsExpireSeconds = nil
        try catalog.replaceAccessState(apps: ended.apps, grants: ended.grants)
        #expect(try Catalog.open(at: path).apps() == ended.apps)

        // Removing the app removes its rules and exclusions with it.
        try catalog.replaceAccessState(apps: [:], grants: [:])
        try catalog.replaceAccessState(apps: ["uploader": App(name: "uploader")], grants: [:])
        #expect(try Catalog.open(at: path).apps() == ["uploader": App(name: "uploader")])
    }
}
