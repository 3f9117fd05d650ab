import MediaFormats
import SystemKit
import Testing

@testable import PhotoCore

/// A grant change patches the app's part (`ViewTree.applyingAccess`): the patched tree must
/// be the tree a rebuild gives (same names, inodes, order and assets in every app view) and
/// its invalidations those a comparison of the two trees gives, over a long run of random
/// selects, deselects, reorders, term changes and expiries, with name clashes, withheld
/// assets, a filter and a compatible representation in play.
@Suite("ViewTree grant patches")
struct ViewTreeGrantPatchTests {
    static let withheld = RedactionPlans(strip: .withheld(reason: "unreadable XMP"), coarse: .withheld(reason: "unreadable XMP"))

    /// 60 assets: every third shares its file name with others (suffixed names), every
    /// seventh is withheld under strip and coarse, every fifth a HEIC, every eleventh a video.
    static let assets: [Asset] = (0..<60).map { n in
        let name = n % 3 == 0 ? "IMG.jpg" : "IMG_\(n).jpg"
        var asset = ViewFixtures.asset(
            String(0x100 + n, radix: 16), "f\(n % 4)/\(name)", taken: ViewFixtures.date(2024, 1, 1 + n % 28),
            redaction: n % 7 == 0 ? withheld : RedactionPlans(strip: .identity, coarse: .identity))
        if n % 5 == 0 { asset.metadata.format = .heic }
        if n % 11 == 0 { asset.metadata.format = .mp4 }
        return asset
    }

    static let apps: [String: App] = [
        "plain": App(name: "plain", locationPolicy: .strip),
        "keep": App(name: "keep", locationPolicy: .keep),
        "images": App(name: "images", filter: "type:image", locationPolicy: .keep),
        "web": App(name: "web", locationPolicy: .strip, representation: .compatible),
    ]

    /// A small deterministic generator (the test must fail the same way twice).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func listing(_ tree: ViewTree, _ app: String) -> [String] {
        guard let directory = tree.resolve(Array("apps/\(app)".utf8)) else { return ["<no apps/\(app)>"] }
        return tree.children(of: directory.inode).map { node in
            "\(node.inode) \(String(decoding: node.name, as: UTF8.self)) \(tree.asset(of: node)?.id.rawValue ?? "-")"
        }
    }

    static func grant(_ id: AssetID, expiresAt: Int64? = nil) -> Grant {
        Grant(asset: id, grantedAtNanoseconds: 1, terms: GrantTerms(expiresAtNanoseconds: expiresAt))
    }

    @Test func patchesEqualRebuildsOverManyChanges() throws {
        let filters = FilterLanguageResolver()
        var grants: [String: [Grant]] = [:]
        var random = Generator(state: 42)
        for name in Self.apps.keys {
            grants[name] = (0..<12).map { Self.grant(Self.assets[($0 * 5 + name.count) % Self.assets.count].id) }
        }
        var tree = ViewTree.build(snapshot: LibrarySnapshot(assets: Self.assets, apps: Self.apps, grants: grants), filters: filters)
        let names = Self.apps.keys.sorted()
        let future = SystemClock.wallNanoseconds() + 3_600_000_000_000
        for step in 0..<300 {
            let app = names[random.next(names.count)]
            var list = grants[app] ?? []
            let selected = Set(list.map(\.asset))
            let unselected = Self.assets.map(\.id).filter { !selected.contains($0) }
            switch random.next(6) {
            case 0:  // select a few
                for _ in 0..<(1 + random.next(3)) where !unselected.isEmpty {
                    let id = unselected[random.next(unselected.count)]
                    if !list.contains(where: { $0.asset == id }) { list.append(Self.grant(id)) }
                }
            case 1:  // deselect a few, anywhere
                for _ in 0..<(1 + random.next(3)) where !list.isEmpty { list.remove(at: random.next(list.count)) }
            case 2:  // deselect and select again: a reorder
                if list.count > 1 { list.append(list.remove(at: random.next(list.count - 1))) }
            case 3:  // new terms for a grant already there
                if !list.isEmpty { list[random.next(list.count)].terms = GrantTerms(expiresAtNanoseconds: future) }
            case 4:  // one in, one out
                if !list.isEmpty { list.remove(at: random.next(list.count)) }
                if !unselected.isEmpty { list.append(Self.grant(unselected[random.next(unselected.count)])) }
            default:  // a grant that has already expired
                if !unselected.isEmpty { list.append(Self.grant(unselected[random.next(unselected.count)], expiresAt: 1)) }
            }
            grants[app] = list
            let (patched, changes) = tree.applyingAccess(apps: Self.apps, grants: grants, filters: filters)
            let rebuilt = tree.replacingAccess(apps: Self.apps, grants: grants, filters: filters)
            for name in names {
                #expect(Self.listing(patched, name) == Self.listing(rebuilt, name), "step \(step): apps/\(name)")
            }
            let expected = tree.changes(to: rebuilt)
            #expect(Set(changes.removedEntries) == Set(expected.removedEntries), "step \(step): names to forget")
            #expect(Set(changes.invalidatedInodes) == Set(expected.invalidatedInodes), "step \(step): inodes to forget")
            ViewFixtures.checkTables(patched)
            // The expired grant is gone from the state, as the daemon's timer removes it.
            grants[app] = list.filter { !$0.terms.hasExpired(at: SystemClock.wallNanoseconds()) }
            tree = patched.applyingAccess(apps: Self.apps, grants: grants, filters: filters).tree
        }
    }

    /// What a patch can apply and what is built again.
    @Test func onlyRemovalsAndAppendsArePatches() throws {
        let (a, b, c, d) = (Self.assets[1].id, Self.assets[2].id, Self.assets[4].id, Self.assets[5].id)
        let app = Self.apps["keep"]!
        let old = [a, b, c].map { Self.grant($0) }
        let select = try #require(GrantDelta(app: app, old: old, new: old + [Self.grant(d)], now: 2))
        #expect(select.added == [d] && select.removed.isEmpty)
        let deselect = try #require(GrantDelta(app: app, old: old, new: [old[0], old[2]], now: 2))
        #expect(deselect.removed == [b] && deselect.added.isEmpty)
        let both = try #require(GrantDelta(app: app, old: old, new: [old[1], Self.grant(d)], now: 2))
        #expect(both.removed == [a, c] && both.added == [d])
        #expect(GrantDelta(app: app, old: old, new: [old[1], old[0], old[2]], now: 2) == nil, "a reorder")
        #expect(GrantDelta(app: app, old: old, new: old + [Self.grant(d, expiresAt: 1)], now: 2) == nil, "an expired grant")
        var ruled = app
        ruled.rules = [GrantRule(filter: "type:image", grantedAtNanoseconds: 1)]
        #expect(GrantDelta(app: ruled, old: old, new: old + [Self.grant(d)], now: 2) == nil, "an app with rules")
    }

    /// A deselect forgets exactly the revoked file and the listing; a select only the listing.
    @Test func invalidationsComeFromTheDelta() throws {
        let filters = FilterLanguageResolver()
        let (a, b) = (Self.assets[1].id, Self.assets[2].id)
        let grants = ["keep": [Self.grant(a), Self.grant(b)]]
        let tree = ViewTree.build(snapshot: LibrarySnapshot(assets: Self.assets, apps: Self.apps, grants: grants), filters: filters)
        let directory = try #require(tree.resolve(Array("apps/keep".utf8))).inode
        let file = try #require(tree.resolve(Array("apps/keep/IMG_1.jpg".utf8))).inode
        let (after, changes) = tree.applyingAccess(apps: Self.apps, grants: ["keep": [Self.grant(b)]], filters: filters)
        #expect(changes.removedEntries == [ViewEntry(parent: directory, name: Array("IMG_1.jpg".utf8))])
        #expect(Set(changes.invalidatedInodes) == [file, directory])
        #expect(after.node(inode: file) == nil)
        let (again, selectChanges) = after.applyingAccess(apps: Self.apps, grants: grants, filters: filters)
        #expect(selectChanges == ViewTreeChanges(invalidatedInodes: [directory]))
        #expect(again.resolve(Array("apps/keep/IMG_1.jpg".utf8))?.inode == file)
    }
}
