import FuseKit
import Glibc
import PhotoCatalog
import PhotoCore
import Synchronization
import TestSupport
import Testing

/// The request files through the view layer, with no mount: who finds which file, and
/// what a request and an answer do.
@Suite(
    "request files: in-process view layer", .serialized,
    .enabled(if: Skip.unless(BehaviourLibrary.binary != nil, "the photofs binary that makes the sample library is not built (swift build)"))
)
struct RequestFilesInProcessTests {
    @Test func requestsAreFoundByTheirCallersAndAnsweredByTheOwner() throws {
        let library = try BehaviourLibrary(root: InProcessBehaviourTests.root)
        defer { library.remove() }
        let setup = try InProcessSetup(catalog: library.catalog, library: library.library)
        let lines = Mutex<[String]>([])
        let layer = setup.layer(log: { line in lines.withLock { $0.append(line) } })
        let asset = try #require(library.uniquelyNamed.first)
        _ = try layer.writePicker(
            Array("app add mine --location keep --uid 4242\nselect mine \(asset.id)\napp add theirs\n".utf8), uid: getuid())
        let mine = try #require(layer.tree.resolve(Array("apps/mine".utf8))).inode
        let theirs = try #require(layer.tree.resolve(Array("apps/theirs".utf8))).inode
        let request = Array(".request".utf8)

        #expect(try layer.lookup(parent: ViewInode.root, name: Array(".requests".utf8), uid: getuid()) == .special(.requestList))
        #expect(throws: ViewLayerError.notFound) { try layer.lookup(parent: ViewInode.root, name: Array(".requests".utf8), uid: 4242) }
        #expect(try layer.lookup(parent: mine, name: request, uid: 4242) == .special(.request(app: "mine")))
        #expect(throws: ViewLayerError.notFound) { try layer.lookup(parent: theirs, name: request, uid: 4242) }
        #expect(throws: ViewLayerError.permissionDenied) { try layer.lookup(parent: mine, name: request, uid: 4343) }

        #expect(throws: ViewLayerError.invalidArgument) { try layer.submitRequest("mine", Array("limit=x".utf8), now: 0, in: layer.tree) }
        #expect(lines.withLock { $0 }.contains { $0.hasPrefix("request of app mine refused: ") && $0.contains("column") })
        let pending = try layer.submitRequest("mine", Array("media=image limit=1".utf8), now: 0, in: layer.tree)
        #expect(String(decoding: layer.requestListText(now: 5), as: UTF8.self).hasPrefix("id=\(pending.id) app=mine limit=1 mode=add"))
        #expect(throws: ViewLayerError.busy) { try layer.submitRequest("mine", Array("limit=1".utf8), now: 1, in: layer.tree) }
        // An answer may only name what the app already sees.
        #expect(throws: ViewLayerError.notFound) {
            try layer.answerRequests(Array("answer mine \(pending.id) 0123456789ab\n".utf8), in: layer.tree)
        }
        #expect(try layer.getattr(RequestInode.file(app: "mine"), uid: 4242).uid == 4242)
        #expect(try layer.getattr(RequestInode.list, uid: getuid(), now: 5).size == Int64(layer.requestListText(now: 5).count))
        #expect(throws: ViewLayerError.notFound) { try layer.getattr(RequestInode.file(app: "theirs"), uid: 4242) }
        let settled = try layer.answerRequests(Array("answer mine \(pending.id) \(asset.id)\n".utf8), in: layer.tree)
        #expect(settled.map(\.1) == [.selected([Array(asset.basename.utf8)])])
        #expect(layer.requestListText(now: 6).isEmpty)
        let answered = try layer.getattr(RequestInode.file(app: "mine"), uid: 4242).size
        #expect(answered == Int64(PickAnswer.selected([Array(asset.basename.utf8)]).bytes.count))
    }
}
