import MediaFormats
import PhotoCore
import Testing

@Suite("ViewTree compatible representation")
struct ViewTreeCompatibleTests {
    static func heic(_ id: String, _ path: String, format: MediaFormat = .heic) -> Asset {
        var asset = ViewFixtures.asset(id, path, taken: ViewFixtures.date(2024, 1, 1))
        asset.metadata.format = format
        return asset
    }

    let assets = [
        heic("a1", "p/IMG_0001.HEIC"),
        ViewFixtures.asset("a2", "p/IMG_0001.jpg", taken: ViewFixtures.date(2024, 1, 2)),
        heic("a3", "p/pic.avif", format: .avif),
        heic("a4", "p/still.heif", format: .heif),
        ViewFixtures.asset("a5", "p/plain.jpg", taken: ViewFixtures.date(2024, 1, 3)),
    ]

    func grants(_ ids: [String]) -> [Grant] {
        ids.enumerated().map { Grant(asset: AssetID("0000000000" + $0.element)!, grantedAtNanoseconds: Int64($0.offset)) }
    }

    func tree(_ apps: [App]) -> ViewTree {
        ViewFixtures.build(
            LibrarySnapshot(
                assets: assets, apps: Dictionary(uniqueKeysWithValues: apps.map { ($0.name, $0) }),
                grants: Dictionary(uniqueKeysWithValues: apps.map { ($0.name, grants(["a1", "a2", "a3", "a4", "a5"])) })))
    }

    func node(_ tree: ViewTree, _ path: String) -> ViewNode? { tree.resolve(Array(path.utf8)) }

    @Test func compatibleAppSeesHEIFFamilyAsJPEGWithTheirOwnInodes() throws {
        let tree = tree([App(name: "web", representation: .compatible), App(name: "orig")])
        // IMG_0001.HEIC was selected first, so it keeps the plain name; the real JPEG yields.
        #expect(ViewFixtures.names(tree, "apps/web") == ["IMG_0001.jpg", "IMG_0001~0000.jpg", "pic.jpg", "still.jpg", "plain.jpg"])
        #expect(ViewFixtures.names(tree, "apps/orig") == ["IMG_0001.HEIC", "IMG_0001.jpg", "pic.avif", "still.heif", "plain.jpg"])
        let converted = try #require(node(tree, "apps/web/IMG_0001.jpg"))
        #expect(converted.representation == .compatibleJPEG(quality: 80))
        #expect(tree.asset(of: converted)?.id.rawValue == "0000000000a1")
        let original = try #require(node(tree, "apps/orig/IMG_0001.HEIC"))
        let library = try #require(node(tree, "library/all/IMG_0001.HEIC"))
        #expect(original.representation == .original)
        #expect(library.representation == .original)
        #expect(Set([converted.inode, original.inode, library.inode]).count == 3)
        // Formats it does not convert are served as stored, under their own name.
        #expect(node(tree, "apps/web/plain.jpg")?.representation == .original)
        #expect(node(tree, "apps/web/IMG_0001~0000.jpg")?.representation == .original)
        #expect(node(tree, "apps/web/pic.jpg")?.representation == .compatibleJPEG(quality: 80))
        #expect(node(tree, "apps/web/still.jpg")?.representation == .compatibleJPEG(quality: 80))
    }

    @Test func switchingRepresentationOrQualityMakesNewInodesAndForgetsTheOldNames() throws {
        let before = tree([App(name: "web")])
        let compatible = before.replacingAccess(
            apps: ["web": App(name: "web", representation: .compatible)], grants: before.snapshot.grants, filters: EmptyFilterOnlyResolver()
        )
        let original = try #require(node(before, "apps/web/pic.avif"))
        let jpeg = try #require(node(compatible, "apps/web/pic.jpg"))
        // The real JPEG keeps the plain name it had; the converted HEIC takes the suffix.
        #expect(compatible.asset(of: node(compatible, "apps/web/IMG_0001.jpg")!)?.id.rawValue == "0000000000a2")
        #expect(node(compatible, "apps/web/IMG_0001~0000.jpg")?.representation == .compatibleJPEG(quality: 80))
        #expect(original.inode != jpeg.inode)
        let changes = before.changes(to: compatible)
        #expect(changes.removedEntries.contains(ViewEntry(parent: original.parent, name: original.name)))
        #expect(changes.invalidatedInodes.contains(original.inode))
        // A real JPEG keeps its node.
        #expect(node(before, "apps/web/plain.jpg")?.inode == node(compatible, "apps/web/plain.jpg")?.inode)

        let sharper = compatible.replacingAccess(
            apps: ["web": App(name: "web", representation: .compatible, quality: 95)], grants: before.snapshot.grants,
            filters: EmptyFilterOnlyResolver())
        let sharp = try #require(node(sharper, "apps/web/pic.jpg"))
        #expect(sharp.representation == .compatibleJPEG(quality: 95))
        #expect(sharp.inode != jpeg.inode)
        #expect(compatible.changes(to: sharper).invalidatedInodes.contains(jpeg.inode))
    }

    @Test func revokingAConvertedAssetRemovesItsJPEG() throws {
        let before = tree([App(name: "web", representation: .compatible)])
        let jpeg = try #require(node(before, "apps/web/pic.jpg"))
        let after = before.replacingAccess(
            apps: before.snapshot.apps, grants: ["web": grants(["a1", "a2", "a4", "a5"])], filters: EmptyFilterOnlyResolver())
        #expect(node(after, "apps/web/pic.jpg") == nil)
        #expect(after.node(inode: jpeg.inode) == nil)
        let changes = before.changes(to: after)
        #expect(changes.removedEntries.contains(ViewEntry(parent: jpeg.parent, name: jpeg.name)))
        #expect(changes.invalidatedInodes.contains(jpeg.inode))
    }

    @Test func jpegXLIsServedAsJPEGToo() {
        let tree = ViewFixtures.build(
            LibrarySnapshot(
                assets: [Self.heic("c1", "p/art.jxl", format: .jxl), Self.heic("c2", "p/clip.mp4", format: .mp4)],
                apps: ["web": App(name: "web", representation: .compatible)], grants: ["web": grants(["c1", "c2"])]))
        #expect(ViewFixtures.names(tree, "apps/web") == ["art.jpg", "clip.mp4"])
        #expect(node(tree, "apps/web/art.jpg")?.representation == .compatibleJPEG(quality: 80))
        #expect(node(tree, "apps/web/clip.mp4")?.representation == .original)
    }

    @Test func longNamesStayWithinTheLimit() {
        let long = String(repeating: "é", count: 126) + ".heic"
        let tree = ViewFixtures.build(
            LibrarySnapshot(
                assets: [Self.heic("b1", long)], apps: ["web": App(name: "web", representation: .compatible)],
                grants: ["web": grants(["b1"])]))
        let names = ViewFixtures.names(tree, "apps/web")
        #expect(names.count == 1)
        #expect(names[0].hasSuffix(".jpg"))
        #expect(names[0].utf8.count <= 255)
    }
}
