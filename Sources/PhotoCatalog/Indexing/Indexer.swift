import Dispatch
import MediaFormats
import PhotoCore
import PhotoHashing
import Synchronization
import SystemKit

/// Brings the catalog in line with the library: walks the tree, reads what is new or
/// changed with the injected analyzer on every core (`AnalysisQueue`), and writes the
/// results in path order while the analysis goes on.
///
/// Rules (see README, The catalog):
/// - A file whose size, mtime, inode and ctime match the catalog is not read (incremental).
///   The ctime cannot be set back, so a same-size rewrite with a restored mtime is read.
/// - Ids come from content: a new file's id is the first 12 hex digits of its
///   fingerprint (size and first and last 64 KiB, see `AssetFingerprint`). A renamed or
///   moved file keeps its id: it is recognised first by its unchanged inode, size, mtime
///   and ctime (a file inside a moved folder: no read needed), otherwise by its fingerprint
///   reappearing at a new path.
/// - A file read again whose fingerprint is unchanged keeps its id and gets fresh metadata
///   and plans (a touched file, or an edit of the middle only: it stays the granted asset).
/// - A file that changes otherwise gets a new id (different content, different id); the
///   old id's grants stay in the catalog but name no file, until that content comes back.
/// - Two files with identical content get different ids: the first in path order keeps the
///   fingerprint's id, each further copy gets the first 12 hex digits of
///   SHA-256("fingerprint/n") for the smallest n ≥ 1 that is free. Ids are kept as long as the row
///   lives (moves included), so walk order decides only on first sight.
/// - Concurrent runs agree: every id is decided inside the write transaction against the
///   rows as they are then, and a path another run has already catalogued with the same
///   fingerprint keeps that run's id. Batches are written in path order, so the same
///   library gets the same ids whichever run writes first.
/// - A row kept from a catalog made before sampled fingerprints (`sha256:` + the whole
///   file's hash) keeps its id when a file with that full hash is found (see
///   `Schema.sampledFingerprintsStep`).
/// - Deleted files leave the catalog; their grants stay (grants are keyed on the id).
/// - A file the analyzer rejects is recorded in `failures` with the reason, never fatal;
///   a file that vanishes while being read is simply gone.
/// - Nothing below an unreadable folder is taken as deleted.
public struct Indexer: Sendable {
    public let catalog: Catalog
    /// The library root as an absolute path (bytes).
    public let library: [UInt8]
    public let analyzer: any AssetAnalyzing
    /// Files written per transaction into an existing catalog (a new one being built is
    /// written in one); analysis runs at most two batches ahead of the writer.
    public var batchSize: Int

    public init(catalog: Catalog, library: [UInt8], analyzer: any AssetAnalyzing, batchSize: Int = 1024) {
        self.catalog = catalog
        self.library = library
        self.analyzer = analyzer
        self.batchSize = max(1, batchSize)
    }

    /// Indexes the scope and says what changed. `progress` may be called from any thread.
    /// The catalog is read on another thread while the library is walked: an unchanged
    /// library costs about the longer of the two, not their sum.
    public func run(scope: IndexScope = .everything, progress: @escaping @Sendable (IndexProgress) -> Void = { _ in }) throws(IndexError)
        -> IndexSummary
    {
        let started = Self.monotonicSeconds()
        let stored = StoredStatesRead { () throws(CatalogError) in try catalog.storedStates(in: scope) }
        let walk: WalkResult
        do {
            walk = try LibraryWalker.walk(root: library, scope: scope) { found in
                progress(.scanning(filesFound: found))
            }
        } catch {
            _ = stored.wait()
            throw .library(error)
        }
        return try run(walk: walk, scope: scope, stored: stored, started: started, progress: progress)
    }

    /// Indexes the whole library from a scan made earlier (see `scan`): what changed after
    /// the scan is not seen by this run.
    public func run(scan: LibraryScan, progress: @escaping @Sendable (IndexProgress) -> Void = { _ in }) throws(IndexError)
        -> IndexSummary
    {
        let started = Self.monotonicSeconds()
        let stored = StoredStatesRead { () throws(CatalogError) in try catalog.storedStates(in: .everything) }
        return try run(walk: scan.walk, scope: .everything, stored: stored, started: started, progress: progress)
    }

    private func run(
        walk: WalkResult, scope: IndexScope, stored: StoredStatesRead, started: Double,
        progress: @escaping @Sendable (IndexProgress) -> Void
    ) throws(IndexError) -> IndexSummary {
        var summary = IndexSummary()
        summary.unreadableFolders = walk.unreadableFolders.map(\.0)
        do {
            var run = try IndexRun(indexer: self, walk: walk, states: stored.wait().get())
            try run.execute(summary: &summary, progress: progress)
        } catch {
            throw .catalog(error)
        }
        summary.seconds = Self.monotonicSeconds() - started
        return summary
    }

    /// The batches `count` files are analysed and written in: `size` each, but the last is
    /// at most an eighth of `size` (split off the one before it). The last write overlaps no
    /// analysis, so the cores wait for it: a short last batch ends the run sooner.
    static func batchRanges(count: Int, size: Int) -> [Range<Int>] {
        var ranges = stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
        let tail = max(1, size / 8)
        if let last = ranges.last, last.count > tail {
            ranges[ranges.count - 1] = last.lowerBound..<(last.upperBound - tail)
            ranges.append((last.upperBound - tail)..<last.upperBound)
        }
        return ranges
    }

    /// The library-relative folder of a library-relative path ("" for the root).
    static func folder(of path: [UInt8]) -> [UInt8] {
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return [] }
        return Array(path[..<slash])
    }

    /// Whether a name ends in `.xmp`, as the sidecars `XMPSidecar.candidates` looks for.
    static func isXMP(_ path: [UInt8]) -> Bool {
        path.count > 4 && path.suffix(4).elementsEqual(".xmp".utf8)
    }

    func absolutePath(_ path: LibraryPath) -> [UInt8] {
        library.last == UInt8(ascii: "/") ? library + path.bytes : library + [UInt8(ascii: "/")] + path.bytes
    }

    static func monotonicSeconds() -> Double {
        SystemClock.monotonicSeconds()
    }
}

/// The bookkeeping of one index run.
private struct IndexRun {
    let indexer: Indexer
    let walk: WalkResult
    /// The catalog's assets in the scope when the run began, in path order.
    let rows: [StoredRow]
    /// The same by path (made only when something changed).
    var stored: [LibraryPath: StoredFileState] = [:]
    let storedFailures: [LibraryPath: FileStat]
    /// Every walked path (made only when something changed and the catalog held rows or
    /// failures: only those are looked up in it).
    var walked: Set<LibraryPath> = []

    /// Rows whose file may have gone or changed: their path vanished or its stat differs.
    /// Each may be claimed once by a file that turns out to hold its content.
    var pool: [LibraryPath: StoredFileState] = [:]
    var claimed: Set<LibraryPath> = []
    var poolByStat: [FileStat: [LibraryPath]] = [:]
    var poolByFingerprint: [String: [LibraryPath]] = [:]
    /// Sizes of pool rows kept from a catalog made before sampled fingerprints: a new file
    /// of such a size may be one of them moved (decided at the end, by whole-file hash).
    var legacyPoolSizes: Set<Int64> = []

    /// Rows moved by their unchanged inode, size and mtime: (old path, new path).
    var statMoves: [(LibraryPath, LibraryPath)] = []
    /// Analysed files whose fate depends on the pool: decided at the end.
    var deferred: [(WalkedFile, AssetAnalysis)] = []
    /// Paths that got an asset row in this run.
    var assetPaths: Set<LibraryPath> = []
    /// Pool rows rewritten at their own path with the same content (touched files).
    var touchedInPlace: Set<LibraryPath> = []
    /// Folders (library-relative bytes, "" for the root) holding a file named `*.xmp`.
    var xmpFolders: Set<[UInt8]> = []

    init(indexer: Indexer, walk: WalkResult, states: StoredStates) {
        self.indexer = indexer
        self.walk = walk
        // Rows below a folder that could not be read are left alone.
        let unreadable = walk.unreadableFolders.map { FolderScope(path: $0.0, recursive: true) }
        rows = unreadable.isEmpty ? states.assets : states.assets.filter { row in !unreadable.contains { $0.contains(row.path) } }
        storedFailures =
            unreadable.isEmpty ? states.failures : states.failures.filter { entry in !unreadable.contains { $0.contains(entry.key) } }
    }

    /// The number of walked files when the catalog holds each of them (as an asset or a
    /// failure) with its stat and holds nothing else; nil otherwise. The walk and `rows`
    /// are both in path order, so this is one merge with no hashing of paths: an unchanged
    /// library is told apart at the cost of comparing its paths once.
    private func unchangedCount() -> Int? {
        var next = 0
        var failuresMatched = 0
        for file in walk.files {
            if next < rows.count, rows[next].path == file.path {
                guard rows[next].state.stat == file.stat else { return nil }
                next += 1
            } else if !storedFailures.isEmpty, storedFailures[file.path] == file.stat {
                failuresMatched += 1
            } else {
                return nil
            }
        }
        guard next == rows.count else { return nil }
        for (file, _) in walk.special {
            guard storedFailures[file.path] == file.stat else { return nil }
            failuresMatched += 1
        }
        guard failuresMatched == storedFailures.count else { return nil }
        return walk.files.count + walk.special.count
    }

    mutating func execute(summary: inout IndexSummary, progress: @escaping @Sendable (IndexProgress) -> Void) throws(CatalogError) {
        // Nothing new, changed or gone: nothing to write and no transaction to open.
        if let unchanged = unchangedCount() {
            summary.unchanged += unchanged
            return
        }
        stored = Dictionary(rows.lazy.map { ($0.path, $0.state) }, uniquingKeysWith: { first, _ in first })
        var candidates: [WalkedFile] = []
        for file in walk.files {
            if let row = stored[file.path], row.stat == file.stat {
                summary.unchanged += 1
            } else if let failure = storedFailures[file.path], failure == file.stat, stored[file.path] == nil {
                summary.unchanged += 1
            } else {
                candidates.append(file)
            }
        }
        // Only stored rows and failures are looked up among the walked paths.
        if !rows.isEmpty || !storedFailures.isEmpty { walked = Set(walk.files.map(\.path) + walk.special.map(\.file.path)) }
        let sidecars = SidecarChanges.sidecars(candidates.map(\.path) + storedFailures.keys.filter { !walked.contains($0) })
        let rereads = SidecarChanges.photos(for: sidecars, walk: walk.files, stored: stored)
        if !rereads.isEmpty { candidates = (candidates + rereads).sorted { $0.path < $1.path } }
        for (path, row) in stored where !walked.contains(path) { pool[path] = row }
        for file in candidates {
            if let row = stored[file.path] { pool[file.path] = row }
        }
        // Fingerprints are read for the pool only: an unchanged library needs none.
        if !pool.isEmpty {
            let fingerprints = try indexer.catalog.fingerprints(of: pool.values.map(\.version.id))
            for (path, row) in pool { pool[path]?.fingerprint = fingerprints[row.version.id] ?? "" }
        }
        for (path, row) in pool.sorted(by: { $0.key < $1.key }) {
            poolByStat[row.stat, default: []].append(path)
            poolByFingerprint[row.fingerprint, default: []].append(path)
            if row.fingerprint.hasPrefix(Schema.legacyFingerprintPrefix) { legacyPoolSizes.insert(row.version.size) }
        }

        // Renames and moves that kept the inode need no read.
        var toAnalyse: [WalkedFile] = []
        for file in candidates {
            if let source = poolByStat[file.stat]?.first(where: { !claimed.contains($0) && $0 != file.path }),
                stored[file.path] == nil || stored[file.path]?.stat != file.stat
            {
                claimed.insert(source)
                statMoves.append((source, file.path))
                assetPaths.insert(file.path)
            } else {
                toAnalyse.append(file)
            }
        }

        // The walk listed every folder: only those with an XMP file can hold a sidecar.
        xmpFolders = Set(walk.files.lazy.filter { Indexer.isXMP($0.path.bytes) }.map { Indexer.folder(of: $0.path.bytes) })
        let filesTotal = toAnalyse.count
        let bytesTotal = toAnalyse.reduce(Int64(0)) { $0 &+ $1.stat.size }
        progress(.analyzing(IndexCounts(filesDone: 0, filesTotal: filesTotal, bytesDone: 0, bytesTotal: bytesTotal)))
        let counters = Mutex<(files: Int, bytes: Int64)>((0, 0))
        let done: @Sendable (Int, Int64) -> Void = { doneFiles, doneBytes in
            let (files, bytes) = counters.withLock { c in
                c.files += doneFiles
                c.bytes &+= doneBytes
                return (c.files, c.bytes)
            }
            progress(.analyzing(IndexCounts(filesDone: files, filesTotal: filesTotal, bytesDone: bytes, bytesTotal: bytesTotal)))
        }
        let paths = toAnalyse.map { indexer.absolutePath($0.path) }
        let hasXMP = toAnalyse.map { xmpFolders.contains(Indexer.folder(of: $0.path.bytes)) }
        let queue = AnalysisQueue(
            files: toAnalyse, paths: paths, folderHasXMP: hasXMP, analyzer: indexer.analyzer, window: 2 * indexer.batchSize, done: done)
        queue.start(workers: max(1, CurrentProcess.onlineProcessorCount - 1))
        if indexer.catalog.isBuilding {
            // Nobody else can open a catalog being built: one transaction, each file written
            // as soon as it and the files before it are analysed.
            let intoEmpty = rows.isEmpty && storedFailures.isEmpty
            try indexer.catalog.withIndexCache { () throws(CatalogError) in
                try indexer.catalog.withIndexTransaction(intoEmpty: intoEmpty) { (writer: IndexWriter) throws(CatalogError) in
                    var written = 0
                    while written < toAnalyse.count {
                        let ready = queue.waitForMore(than: written)
                        for index in written..<ready { try record(toAnalyse[index], queue.take(index), writer: writer, summary: &summary) }
                        written = ready
                        queue.release(upTo: written)
                    }
                    try recordSpecialFiles(writer: writer, summary: &summary)
                    try finish(writer: writer, summary: &summary)
                }
            }
            return
        }
        // A named catalog is written a batch per transaction, each opened only when its
        // batch is analysed, so other writers (grants) wait at most one batch's write.
        let batches = Indexer.batchRanges(count: toAnalyse.count, size: indexer.batchSize)
        // Several commits: the WAL is copied into the catalog while later batches are
        // analysed, so the run's end has little left to copy and sync.
        let checkpointer = batches.count > 1 ? IndexCheckpointer(path: indexer.catalog.path) : nil
        defer { checkpointer?.finish() }
        try indexer.catalog.withIndexCache { () throws(CatalogError) in
            for batch in batches {
                queue.wait(for: batch.upperBound)
                try indexer.catalog.withIndexTransaction { (writer: IndexWriter) throws(CatalogError) in
                    for index in batch { try record(toAnalyse[index], queue.take(index), writer: writer, summary: &summary) }
                }
                queue.release(upTo: batch.upperBound)
                checkpointer?.request()
            }
            try indexer.catalog.withIndexTransaction { (writer: IndexWriter) throws(CatalogError) in
                try recordSpecialFiles(writer: writer, summary: &summary)
                try finish(writer: writer, summary: &summary)
            }
        }
    }

    /// Links, FIFOs, sockets and devices are not assets: each is recorded with why, so
    /// `photofs show` can say it (unless recorded already with the same stat).
    private func recordSpecialFiles(writer: IndexWriter, summary: inout IndexSummary) throws(CatalogError) {
        for (file, kind) in walk.special {
            if storedFailures[file.path] == file.stat {
                summary.unchanged += 1
                continue
            }
            try writer.write(
                FailureRecord(
                    path: file.path, size: file.stat.size, mtimeNanoseconds: file.stat.mtimeNanoseconds, inode: file.stat.inode,
                    ctimeNanoseconds: file.stat.ctimeNanoseconds, reason: .notRegularFile(kind),
                    recordedAtNanoseconds: FileSystem.nowNanoseconds()))
            summary.failed += 1
        }
    }

    /// Writes what can be decided now; defers what depends on the pool.
    private mutating func record(
        _ file: WalkedFile, _ outcome: Result<AssetAnalysis, AnalysisError>, writer: IndexWriter, summary: inout IndexSummary
    ) throws(CatalogError) {
        switch outcome {
        case .failure(.unreadable(let error)) where error == .noSuchFileOrDirectory || error == .notDirectory:
            return  // gone while we looked; its row, if any, stays in the pool and is removed
        case .failure(let reason):
            try writer.write(
                FailureRecord(
                    path: file.path, size: file.stat.size, mtimeNanoseconds: file.stat.mtimeNanoseconds, inode: file.stat.inode,
                    ctimeNanoseconds: file.stat.ctimeNanoseconds, reason: reason, recordedAtNanoseconds: FileSystem.nowNanoseconds()))
            if reason == .notMedia { summary.notAssets += 1 } else { summary.failed += 1 }
        case .success(let analysis):
            if let row = pool[file.path], !claimed.contains(file.path),
                row.fingerprint == analysis.fingerprint || legacyMatch(row, file.path, size: file.stat.size)
            {
                // Same content, touched: same id, fresh stat and metadata.
                claimed.insert(file.path)
                touchedInPlace.insert(file.path)
                try writer.write(makeRecord(id: row.version.id, file: file, analysis: analysis))
                assetPaths.insert(file.path)
                summary.touched += 1
                summary.invalidatedIDs.insert(row.version.id)
            } else if stored[file.path] != nil || poolByFingerprint[analysis.fingerprint] != nil
                || legacyPoolSizes.contains(file.stat.size)
            {
                deferred.append((file, analysis))
            } else if !writer.intoEmpty, let id = try writer.id(at: file.path, fingerprint: analysis.fingerprint) {
                // Another run catalogued this file since this run read the catalog: keep its id.
                try writer.write(makeRecord(id: id, file: file, analysis: analysis))
                assetPaths.insert(file.path)
                summary.unchanged += 1
            } else {
                let id = try newID(for: analysis.fingerprint, writer: writer, reserved: [], written: summary.newIDs)
                try writer.write(makeRecord(id: id, file: file, analysis: analysis))
                assetPaths.insert(file.path)
                summary.new += 1
                summary.newIDs.insert(id)
            }
        }
    }

    /// Moves, changes and removals: every pool row not rewritten in place is deleted,
    /// then the rows that live on are written at their new paths, so two paths never
    /// collide half-way (a swap of two names works).
    private mutating func finish(writer: IndexWriter, summary: inout IndexSummary) throws(CatalogError) {
        // Fingerprint moves: a row whose path vanished first, then one whose file changed.
        var fingerprintMoves: [(StoredFileState, WalkedFile, AssetAnalysis)] = []
        var fresh: [(WalkedFile, AssetAnalysis)] = []
        for (file, analysis) in deferred {
            let sources = poolByFingerprint[analysis.fingerprint]?.filter { !claimed.contains($0) } ?? []
            if let source = sources.first(where: { !walked.contains($0) }) ?? sources.first, let row = pool[source] {
                claimed.insert(source)
                fingerprintMoves.append((row, file, analysis))
            } else {
                fresh.append((file, analysis))
            }
        }
        // Rows from a catalog made before sampled fingerprints whose path is gone: a fresh
        // file with the same whole-file hash is that row moved.
        var legacyBySize: [Int64: [LibraryPath]] = [:]
        for (path, row) in pool.sorted(by: { $0.key < $1.key })
        where !claimed.contains(path) && !walked.contains(path) && row.fingerprint.hasPrefix(Schema.legacyFingerprintPrefix) {
            legacyBySize[row.version.size, default: []].append(path)
        }
        if !legacyBySize.isEmpty {
            fresh = fresh.filter { (file, analysis) in
                guard let candidates = legacyBySize[file.stat.size],
                    let source = candidates.first(where: {
                        !claimed.contains($0) && legacyMatch(pool[$0]!, file.path, size: file.stat.size)
                    }),
                    let row = pool[source]
                else { return true }
                claimed.insert(source)
                fingerprintMoves.append((row, file, analysis))
                return false
            }
        }
        // Rows moved by stat keep their metadata: read them before their rows go.
        var statMoved: [(AssetRecord, LibraryPath)] = []
        for (source, target) in statMoves {
            guard let row = pool[source], let record = try writer.record(row.version.id) else { continue }
            statMoved.append((record, target))
        }
        // Ids of rows nobody claims are not handed to other content in this run.
        var reserved = Set<AssetID>()
        for (path, row) in pool where !claimed.contains(path) { reserved.insert(row.version.id) }
        for (path, row) in pool where !touchedInPlace.contains(path) { try writer.delete(row.version.id) }

        for (record, target) in statMoved {
            var moved = record
            moved.asset.path = target
            try writer.write(moved)
            summary.moved += 1
            summary.movedIDs.insert(record.asset.id)
        }
        for (row, file, analysis) in fingerprintMoves {
            try writer.write(makeRecord(id: row.version.id, file: file, analysis: analysis))
            summary.moved += 1
            summary.movedIDs.insert(row.version.id)
        }
        for (file, analysis) in fresh {
            var id = try writer.id(at: file.path, fingerprint: analysis.fingerprint)
            if id == nil { id = try newID(for: analysis.fingerprint, writer: writer, reserved: reserved, written: summary.newIDs) }
            guard let id else { continue }
            try writer.write(makeRecord(id: id, file: file, analysis: analysis))
            assetPaths.insert(file.path)
            summary.newIDs.insert(id)
            if stored[file.path] != nil { summary.changed += 1 } else { summary.new += 1 }
        }
        for (path, row) in pool where !claimed.contains(path) {
            summary.invalidatedIDs.insert(row.version.id)
            // A path that now holds other content counts as changed, not removed.
            if !assetPaths.contains(path) { summary.removed += 1 }
        }
        for path in storedFailures.keys where !walked.contains(path) || assetPaths.contains(path) {
            try writer.deleteFailure(path)
        }
    }

    /// Whether a row kept from a catalog made before sampled fingerprints holds the file now
    /// at `path`: same size and same whole-file SHA-256 (read only when the sizes agree).
    private func legacyMatch(_ row: StoredFileState, _ path: LibraryPath, size: Int64) -> Bool {
        guard row.fingerprint.hasPrefix(Schema.legacyFingerprintPrefix), row.version.size == size else { return false }
        let wanted = row.fingerprint.dropFirst(Schema.legacyFingerprintPrefix.count)
        guard let digest = try? FileDigest.sha256Hex(path: indexer.absolutePath(path)) else { return false }
        return digest == wanted
    }

    private func makeRecord(id: AssetID, file: WalkedFile, analysis: AssetAnalysis) -> AssetRecord {
        var record = AssetRecord(
            asset: Asset(
                id: id, path: file.path, size: file.stat.size, mtimeNanoseconds: file.stat.mtimeNanoseconds, inode: file.stat.inode,
                ctimeNanoseconds: file.stat.ctimeNanoseconds, metadata: analysis.metadata, redaction: analysis.redaction),
            fingerprint: analysis.fingerprint, indexedAtNanoseconds: FileSystem.nowNanoseconds(), redaction: analysis.redaction)
        record.contentIdentifier = analysis.contentIdentifier
        return record
    }

    /// The id for new content: the first of `AssetID.candidates(for:)` that is free. In a
    /// catalog that was empty (`IndexWriter.intoEmpty`), the ids taken are those `written`
    /// in this run, with no lookup.
    private func newID(for fingerprint: String, writer: IndexWriter, reserved: Set<AssetID>, written: Set<AssetID>) throws(CatalogError)
        -> AssetID
    {
        for id in AssetID.candidates(for: fingerprint) where !reserved.contains(id) {
            if writer.intoEmpty ? !written.contains(id) : !(try writer.isTaken(id)) { return id }
        }
        preconditionFailure("AssetID.candidates is endless")
    }
}

extension StoredFileState {
    var stat: FileStat {
        FileStat(
            size: version.size, mtimeNanoseconds: version.mtimeNanoseconds, inode: version.inode, ctimeNanoseconds: version.ctimeNanoseconds
        )
    }
}

/// The catalog's stored states of a scope, read on another thread while the library is walked.
private typealias StoredStatesRead = BackgroundResult<StoredStates, CatalogError>
