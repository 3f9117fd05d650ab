import Dispatch
import PhotoCore
import PhotoHashing
import Synchronization

/// What `photofs index --verify` found: every catalogued file hashed whole.
public struct VerifySummary: Sendable, Hashable {
    /// Files hashed.
    public var files = 0
    /// Bytes hashed.
    public var bytes: Int64 = 0
    /// Files hashed for the first time (their hash is now stored).
    public var firstHashed = 0
    /// Files whose content differs from the hash stored by an earlier verify although their
    /// size, mtime, inode and ctime did not change (storage corruption, or a writer that
    /// bypassed the file system): they were read again by the index run that followed.
    public var changedSilently: [LibraryPath] = []
    /// Files that vanished or could not be read while hashing.
    public var unreadable: [LibraryPath] = []

    public init() {}
}

extension Indexer {
    /// Hashes every catalogued file in the scope whole (SHA-256 by libcrypto, on every core)
    /// and compares it with the hash stored by an earlier verify (or kept from a catalog made
    /// before sampled fingerprints). A file whose content changed under an unchanged stat is
    /// marked unknown (ctime 0) and indexed again at once, so its metadata and redaction
    /// plans are made afresh from its bytes. Run it after `run`: it checks what the catalog
    /// holds, not what the walk found.
    public func verify(scope: IndexScope = .everything, progress: @escaping @Sendable (IndexProgress) -> Void = { _ in }) throws(IndexError)
        -> (VerifySummary, IndexSummary?)
    {
        let rows: [StoredContentHash]
        do {
            rows = try catalog.contentHashes(in: scope)
        } catch {
            throw .catalog(error)
        }
        let total = rows.reduce(Int64(0)) { $0 &+ $1.size }
        let counters = Mutex<(files: Int, bytes: Int64)>((0, 0))
        let digests = Mutex<[String?]>(Array(repeating: nil, count: rows.count))
        let paths = rows.map { absolutePath($0.path) }
        DispatchQueue.concurrentPerform(iterations: rows.count) { index in
            let digest = try? FileDigest.sha256Hex(path: paths[index])
            digests.withLock { $0[index] = digest }
            let (files, bytes) = counters.withLock { c in
                c.files += 1
                c.bytes &+= rows[index].size
                return (c.files, c.bytes)
            }
            progress(.analyzing(IndexCounts(filesDone: files, filesTotal: rows.count, bytesDone: bytes, bytesTotal: total)))
        }
        var summary = VerifySummary()
        var updates: [(AssetID, String, forget: Bool)] = []
        for (row, digest) in zip(rows, digests.withLock { $0 }) {
            guard let digest else {
                summary.unreadable.append(row.path)
                continue
            }
            summary.files += 1
            summary.bytes &+= row.size
            if row.contentSHA256 == nil {
                summary.firstHashed += 1
                updates.append((row.id, digest, false))
            } else if row.contentSHA256 != digest {
                summary.changedSilently.append(row.path)
                updates.append((row.id, digest, true))
            }
        }
        do {
            try catalog.withIndexTransaction { (writer: IndexWriter) throws(CatalogError) in
                for (id, digest, forget) in updates { try writer.setContentHash(id, digest, forgetStat: forget) }
            }
        } catch {
            throw .catalog(error)
        }
        guard !summary.changedSilently.isEmpty else { return (summary, nil) }
        return (summary, try run(scope: scope, progress: progress))
    }
}

/// A catalogued file and the whole-file hash stored for it, if any.
struct StoredContentHash: Sendable {
    var id: AssetID
    var path: LibraryPath
    var size: Int64
    var contentSHA256: String?
}
