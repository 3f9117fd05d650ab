/// Collects patches in any order, possibly overlapping, and turns them into the sorted,
/// non-overlapping, merged list a `RedactionPlan` holds. Where patches overlap, the one
/// added later wins, so a planner can lay a specific rewrite over a general blanking.
struct PatchList: Sendable {
    private var patches: [Patch] = []
    /// Bytes held by all patches (before merging).
    private(set) var totalBytes = 0
    /// Set when a patch had to be refused (too large to hold): the plan cannot be served.
    private(set) var refused = false

    /// The most patch bytes one plan may hold; a plan needing more is withheld. It matches
    /// what the stored encoding accepts back, so every plan that is served can be stored.
    static let maxTotalBytes = RedactionPlan.maxDecodedPatchBytes

    init() {}

    var isEmpty: Bool { patches.isEmpty }

    /// Adds a patch (an empty one is ignored).
    mutating func add(_ patch: Patch) {
        guard !patch.bytes.isEmpty else { return }
        guard patch.offset >= 0, patch.bytes.count <= Self.maxTotalBytes - totalBytes else {
            refused = true
            return
        }
        totalBytes += patch.bytes.count
        patches.append(patch)
    }

    /// Adds a patch of `bytes` at `offset`.
    mutating func add(at offset: Int64, _ bytes: [UInt8]) {
        add(Patch(offset: offset, bytes: bytes))
    }

    /// Adds a patch that fills `range` with `byte`.
    mutating func fill(_ range: ByteRange, with byte: UInt8) {
        guard range.length > 0 else { return }
        guard range.offset >= 0, range.length <= Int64(Self.maxTotalBytes - totalBytes) else {
            refused = true
            return
        }
        add(Patch(offset: range.offset, bytes: [UInt8](repeating: byte, count: Int(range.length))))
    }

    /// The patches sorted by offset, overlapping and touching ones merged into one.
    func merged() -> [Patch] {
        let order = patches.indices.sorted { (patches[$0].offset, $0) < (patches[$1].offset, $1) }
        var result: [Patch] = []
        var group: [Int] = []
        var groupStart: Int64 = 0
        var groupEnd: Int64 = 0

        func flush() {
            guard !group.isEmpty else { return }
            // A patch that overlaps nothing stands as it is.
            if group.count == 1 {
                result.append(patches[group[0]])
                return
            }
            var bytes = [UInt8](repeating: 0, count: Int(groupEnd - groupStart))
            // Apply in insertion order so later patches win.
            for index in group.sorted() {
                let patch = patches[index]
                let start = Int(patch.offset - groupStart)
                bytes.replaceSubrange(start..<start + patch.bytes.count, with: patch.bytes)
            }
            result.append(Patch(offset: groupStart, bytes: bytes))
        }

        for index in order {
            let patch = patches[index]
            if !group.isEmpty && patch.offset <= groupEnd {
                group.append(index)
                groupEnd = max(groupEnd, patch.end)
            } else {
                flush()
                group = [index]
                groupStart = patch.offset
                groupEnd = patch.end
            }
        }
        flush()
        return result
    }
}
