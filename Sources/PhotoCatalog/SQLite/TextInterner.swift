import PhotoCore
import Synchronization

/// Hands out shared storage while many rows are read: one `String` per distinct text value
/// (a library of 100,000 photos from a dozen cameras holds a dozen makes, models and lens
/// names, not 100,000 copies of each: about 14 MB at that size), one `CameraTexts` per
/// distinct camera, and the rows' paths packed into the buffers of one `PathArena`.
///
/// Values of up to 15 UTF-8 bytes are stored inside the `String` itself and are not
/// cached. At most `limit` values are kept, so a column of unique texts costs a bounded
/// table, not a second copy of the column.
///
/// One interner serves one thread; the interners of a read split over threads share their
/// cameras through one `SharedCameras`, so each camera is still one `CameraTexts`.
struct TextInterner {
    private var buckets: [Int: [String]] = [:]
    private var count = 0
    /// The camera texts handed out, each kept once (up to `limit`), by the hash of their bytes.
    private var cameras: [Int: [CameraTexts]] = [:]
    private var cameraCount = 0
    /// Where cameras this interner has not seen are made unique across threads, if anywhere.
    private let shared: SharedCameras?
    /// Where the rows' paths go.
    private var paths: PathArena
    static let limit = 4096

    /// An interner for a read of many rows (`pathChunkBytes`, see `PathArena`), or of a few
    /// (0: each path gets a buffer of its own, so that patching a snapshot with a few rows
    /// read again does not keep a mostly empty buffer alive per patch); `shared` when other
    /// threads read rows of the same snapshot.
    init(pathChunkBytes: Int = 0, shared: SharedCameras? = nil) {
        paths = PathArena(chunkBytes: pathChunkBytes)
        self.shared = shared
    }

    /// A path of `bytes`, in the interner's arena.
    mutating func path(_ bytes: UnsafeBufferPointer<UInt8>) -> LibraryPath {
        paths.path(bytes)
    }

    /// The camera texts remembered under `hash` that `matches` accepts, if any.
    func camera(hash: Int, where matches: (CameraTexts) -> Bool) -> CameraTexts? {
        cameras[hash]?.first(where: matches)
    }

    /// Remembers `texts` under `hash` (the hash of their bytes), up to `limit`, and returns
    /// what to hand out for them: `texts`, or the equal texts another thread of the same
    /// read made first.
    mutating func remember(_ texts: CameraTexts, hash: Int) -> CameraTexts {
        let unique = shared?.unique(texts, hash: hash) ?? texts
        guard cameraCount < Self.limit else { return unique }
        cameras[hash, default: []].append(unique)
        cameraCount += 1
        return unique
    }

    /// The text of `bytes` (invalid UTF-8 repaired with U+FFFD), shared with earlier equal values.
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if bytes.count <= 15 { return String(decoding: bytes, as: UTF8.self) }
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        let hash = hasher.finalize()
        if let known = buckets[hash] {
            for text in known where text.utf8.elementsEqual(bytes) { return text }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if count < Self.limit {
            buckets[hash, default: []].append(text)
            count += 1
        }
        return text
    }
}

/// The camera texts of one read split over threads, each distinct camera once: the
/// threads' interners ask here only for a camera they have not seen (a few dozen times
/// per read), so the lock is not in the way.
final class SharedCameras: Sendable {
    private let table = Mutex<(byHash: [Int: [CameraTexts]], count: Int)>(([:], 0))

    /// The texts equal to `texts` made first by any thread (`texts` itself when it is the
    /// first; up to `TextInterner.limit` are kept).
    func unique(_ texts: CameraTexts, hash: Int) -> CameraTexts {
        table.withLock { table in
            if let known = table.byHash[hash]?.first(where: { $0 == texts }) { return known }
            guard table.count < TextInterner.limit else { return texts }
            table.byHash[hash, default: []].append(texts)
            table.count += 1
            return texts
        }
    }
}
