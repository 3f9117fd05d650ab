import MediaFormats
import PhotoCore
import Testing

/// Builds assets and snapshots for the view-tree tests (metadata as the indexer would record it).
enum ViewFixtures {
    /// An asset whose id is `id` padded to 12 hex digits.
    static func asset(
        _ id: String, _ path: String, taken: CaptureDate? = nil, make: String? = nil, model: String? = nil,
        mtime: Int64 = 1_700_000_000_000_000_000, size: Int64 = 1000,
        redaction: RedactionPlans = RedactionPlans(strip: .identity, coarse: .identity)
    ) -> Asset {
        asset(id, LibraryPath(path), taken: taken, make: make, model: model, mtime: mtime, size: size, redaction: redaction)
    }

    static func asset(
        _ id: String, _ path: LibraryPath, taken: CaptureDate? = nil, make: String? = nil, model: String? = nil,
        mtime: Int64 = 1_700_000_000_000_000_000, size: Int64 = 1000,
        redaction: RedactionPlans = RedactionPlans(strip: .identity, coarse: .identity)
    ) -> Asset {
        let padded = String(repeating: "0", count: max(0, 12 - id.count)) + id
        var metadata = MediaMetadata(format: .jpeg, captureDate: taken, make: make, model: model)
        metadata.dateSource = taken == nil ? .fileModification : .dateTimeOriginal
        return Asset(
            id: AssetID(padded)!, path: path, size: size, mtimeNanoseconds: mtime, inode: 1, metadata: metadata, redaction: redaction)
    }

    static func date(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 12) -> CaptureDate { CaptureDate(year: y, month: m, day: d, hour: h) }

    static func names(_ tree: ViewTree, _ path: String) -> [String] {
        guard let directory = tree.resolve(Array(path.utf8)) else { return ["<missing \(path)>"] }
        return tree.children(of: directory.inode).map { String(decoding: $0.name, as: UTF8.self) }
    }

    static func build(_ snapshot: LibrarySnapshot, previous: ViewTree? = nil) -> ViewTree {
        ViewTree.build(snapshot: snapshot, previous: previous, filters: EmptyFilterOnlyResolver())
    }

    /// Every listed node is found by inode and by (parent, name), and nothing else is counted.
    static func checkTables(_ tree: ViewTree) {
        var visited = 0
        var pending: [UInt64] = [ViewInode.root]
        while let directory = pending.popLast() {
            for child in tree.children(of: directory) {
                visited += 1
                #expect(tree.node(inode: child.inode)?.name == child.name)
                #expect(tree.lookup(parent: directory, name: child.name)?.inode == child.inode)
                if child.isDirectory { pending.append(child.inode) }
            }
        }
        #expect(visited == tree.nodeCount - 1)
    }
}

/// A resolver for view tests that understands only the empty filter ("everything") and
/// fails closed on any other text, so the view tests do not depend on the filter language.
struct EmptyFilterOnlyResolver: AppFilterResolving {
    func predicate(for app: App) -> (@Sendable (Asset) -> Bool)? {
        let isEmpty = app.filter.allSatisfy { $0 == " " || $0 == "\t" }
        guard isEmpty else { return nil }
        return { _ in true }
    }
}
