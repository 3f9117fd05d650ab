import MediaFormats
import Testing

@testable import PhotoCore

/// A large library listing read page by page from its laid-out entries gives what its nodes
/// give: the same inodes, names and kinds at every position, subdirectories merged by name
/// in the folders view, clashing and non-UTF-8 names as the views name them.
@Suite struct ListedEntriesTests {
    /// 1,500 files in `big` (a third of their names also in `other`, so `all` must rename
    /// them), two subdirectories whose names fall between the files', one name not UTF-8.
    static let tree: ViewTree = {
        var assets: [Asset] = []
        for number in 0..<1_500 {
            let digits = String(number)
            let name = "IMG_" + String(repeating: "0", count: 4 - digits.count) + digits + ".jpg"
            let hex = String(number, radix: 16)
            assets.append(ViewFixtures.asset("a" + hex, "big/" + name))
            if number % 3 == 0 { assets.append(ViewFixtures.asset("b" + hex, "other/" + name)) }
        }
        assets.append(ViewFixtures.asset("c1", "big/IMG_0700.jpg.d/inside.jpg"))
        assets.append(ViewFixtures.asset("c2", "big/IMG_1200/inside.jpg"))
        assets.append(ViewFixtures.asset("c3", LibraryPath(bytes: Array("big/odd-".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8))))
        return ViewFixtures.build(LibrarySnapshot(assets: assets))
    }()

    /// (inode, name, kind) of each entry from `position`, as `forEachEntry` reads them, at
    /// most `limit` (as a READDIR page stops).
    static func page(_ listing: ViewListing, from position: Int, limit: Int = .max) -> [(UInt64, [UInt8], ViewNodeKind)] {
        var out: [(UInt64, [UInt8], ViewNodeKind)] = []
        listing.forEachEntry(from: position) { inode, name, kind in
            out.append((inode, Array(name), kind))
            return out.count < limit
        }
        return out
    }

    @Test(arguments: ["library/all", "library/folders/big"])
    func pagesOfALaidOutListingMatchItsNodes(_ path: String) throws {
        let directory = try #require(Self.tree.resolve(Array(path.utf8)))
        let listing = try #require(Self.tree.listing(of: directory.inode))
        #expect(listing.count >= ListedEntries.smallest)
        let nodes = (0..<listing.count).compactMap { listing.child(at: $0) }
        #expect(nodes.count == listing.count)
        // Pages as a READDIR reads them, starting where the previous one stopped.
        var position = 0
        var paged: [(UInt64, [UInt8], ViewNodeKind)] = []
        while position < listing.count {
            let page = Self.page(listing, from: position, limit: 333)
            #expect(!page.isEmpty)
            paged += page
            position += page.count
        }
        #expect(paged.count == nodes.count)
        // The pages came from the laid-out entries, made by the first.
        guard case .library(let library) = listing.source else {
            Issue.record("\(path) is not a library listing")
            return
        }
        #expect(library.laidOut.entries(orMake: { nil }) != nil)
        for (entry, node) in zip(paged, nodes) {
            #expect(entry.0 == node.inode && entry.1 == node.name && entry.2 == node.kind, "\(String(decoding: node.name, as: UTF8.self))")
        }
        // Any position, past the end included, in another copy of the listing.
        let copy = listing
        for start in [0, 1, 777, listing.count - 1] {
            #expect(Self.page(copy, from: start, limit: 3).map(\.0) == nodes[start..<min(start + 3, nodes.count)].map(\.inode))
        }
        #expect(Self.page(copy, from: listing.count).isEmpty && Self.page(copy, from: listing.count + 5).isEmpty)
        if path == "library/folders/big" {
            let names = paged.map { String(decoding: $0.1, as: UTF8.self) }
            #expect(names.contains("IMG_0700.jpg.d") && names.contains("IMG_1200"))
            #expect(paged.contains { $0.1 == Array("odd-".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8) })
        } else {
            // Every name of `all` is different, though a third of the files' names clash.
            #expect(Set(paged.map(\.1)).count == paged.count)
        }
    }
}
