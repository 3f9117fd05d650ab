import PhotoCore
import Testing

@Suite("ViewTree names")
struct ViewNamingTests {
    @Test func collisionGetsIdSuffixBeforeExtensionEarliestKeepsPlainName() {
        let snapshot = LibrarySnapshot(assets: [
            ViewFixtures.asset("3f9a1c0d2b7e", "b/IMG_0001.jpg", taken: ViewFixtures.date(2024, 1, 2)),
            ViewFixtures.asset("9999aaaabbbb", "a/IMG_0001.jpg", taken: ViewFixtures.date(2024, 1, 1)),
        ])
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "library/all") == ["IMG_0001.jpg", "IMG_0001~3f9a.jpg"])
        #expect(tree.asset(of: tree.resolve(Array("library/all/IMG_0001.jpg".utf8))!)?.id.rawValue == "9999aaaabbbb")
    }

    @Test func suffixGrowsWhileStillTaken() {
        let snapshot = LibrarySnapshot(assets: [
            ViewFixtures.asset("3f9a00000001", "x/a.jpg", taken: ViewFixtures.date(2024, 1, 1)),
            ViewFixtures.asset("3f9a00000002", "y/a.jpg", taken: ViewFixtures.date(2024, 1, 2)),
            ViewFixtures.asset("3f9a00000003", "z/a.jpg", taken: ViewFixtures.date(2024, 1, 3)),
        ])
        let tree = ViewFixtures.build(snapshot)
        // The second gets the 4-digit suffix; the third would get the same and grows to 5... until unique.
        #expect(ViewFixtures.names(tree, "library/all") == ["a.jpg", "a~3f9a.jpg", "a~3f9a0.jpg"])
    }

    @Test func realFileThatLooksSuffixedKeepsItsName() {
        let snapshot = LibrarySnapshot(assets: [
            ViewFixtures.asset("3f9a00000001", "x/a.jpg", taken: ViewFixtures.date(2024, 1, 1)),
            ViewFixtures.asset("3f9a00000002", "y/a.jpg", taken: ViewFixtures.date(2024, 1, 2)),
            ViewFixtures.asset("777700000003", "z/a~3f9a.jpg", taken: ViewFixtures.date(2024, 1, 3)),
        ])
        let tree = ViewFixtures.build(snapshot)
        #expect(Set(ViewFixtures.names(tree, "library/all")) == ["a.jpg", "a~3f9a.jpg", "a~3f9a0.jpg"])
        #expect(tree.asset(of: tree.resolve(Array("library/all/a~3f9a.jpg".utf8))!)?.id.rawValue == "777700000003")
    }

    @Test(arguments: [("noext", "noext~abcd"), (".hidden", ".hidden~abcd"), ("a.b.tar", "a.b~abcd.tar")])
    func suffixPlacement(base: String, expected: String) {
        let snapshot = LibrarySnapshot(assets: [
            ViewFixtures.asset("000000000001", "x/" + base, taken: ViewFixtures.date(2024, 1, 1)),
            ViewFixtures.asset("abcd00000002", "y/" + base, taken: ViewFixtures.date(2024, 1, 2)),
        ])
        #expect(ViewFixtures.names(ViewFixtures.build(snapshot), "library/all") == [base, expected])
    }

    @Test func suffixedLongNameStaysWithin255Bytes() throws {
        let long = String(repeating: "é", count: 125) + ".jpg"  // 254 bytes
        let snapshot = LibrarySnapshot(assets: [
            ViewFixtures.asset("000000000001", "x/" + long, taken: ViewFixtures.date(2024, 1, 1)),
            ViewFixtures.asset("abcd00000002", "y/" + long, taken: ViewFixtures.date(2024, 1, 2)),
        ])
        let tree = ViewFixtures.build(snapshot)
        let names = tree.children(of: ViewInode.all).map(\.name)
        #expect(names[0] == Array(long.utf8))
        #expect(names[1].count <= 255)
        let text = try #require(String(validating: names[1], as: UTF8.self))
        #expect(text.hasSuffix("~abcd.jpg"))
    }

    @Test func nameStaysWhileAssetStaysEvenWhenAnEarlierOneArrives() {
        let first = LibrarySnapshot(assets: [ViewFixtures.asset("bbbb00000001", "x/IMG.jpg", taken: ViewFixtures.date(2024, 5, 1))])
        let before = ViewFixtures.build(first)
        // The name was shown (a directory is named on first use; see LibraryNamingTests).
        #expect(ViewFixtures.names(before, "library/all") == ["IMG.jpg"])
        var second = first
        second.assets.append(ViewFixtures.asset("aaaa00000002", "y/IMG.jpg", taken: ViewFixtures.date(2020, 1, 1)))
        let after = ViewFixtures.build(second, previous: before)
        #expect(after.asset(of: after.resolve(Array("library/all/IMG.jpg".utf8))!)?.id.rawValue == "bbbb00000001")
        #expect(after.resolve(Array("library/all/IMG~aaaa.jpg".utf8)) != nil)
        // Without history the earlier capture wins the plain name: naming is deterministic.
        let fresh = ViewFixtures.build(second)
        #expect(fresh.asset(of: fresh.resolve(Array("library/all/IMG.jpg".utf8))!)?.id.rawValue == "aaaa00000002")
    }

    @Test func sameSnapshotGivesSameNamesAndInodes() {
        let assets = (0..<200).map {
            ViewFixtures.asset(
                String(format4($0)) + "00000000", "d\($0 % 7)/IMG_\($0 % 13).jpg", taken: ViewFixtures.date(2024, 1, 1 + $0 % 28))
        }
        let a = ViewFixtures.build(LibrarySnapshot(assets: assets))
        let b = ViewFixtures.build(LibrarySnapshot(assets: assets.reversed()))
        for directory in ["library/all", "library/by-date/2024/01/05", "library/folders/d3"] {
            let left = a.children(of: a.resolve(Array(directory.utf8))!.inode).map { ($0.inode, $0.name) }
            let right = b.children(of: b.resolve(Array(directory.utf8))!.inode).map { ($0.inode, $0.name) }
            #expect(left.map(\.0) == right.map(\.0))
            #expect(left.map(\.1) == right.map(\.1))
        }
    }
}

private func format4(_ value: Int) -> String {
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
