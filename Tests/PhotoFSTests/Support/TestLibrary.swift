import Glibc
import MediaFormats
import PhotoCore

/// A temporary library on disk with its snapshot, built by stat-ing the files the way the
/// indexer records them (ids are assigned here, since no analyser runs in these tests).
final class TestLibrary {
    let root: [UInt8]
    private(set) var assets: [Asset] = []
    /// The plans of the recorded files, where the catalog would keep them.
    let plans = MemoryPlans()

    init() {
        root = Array(temporaryDirectory("photofs-lib").utf8)
    }

    /// Writes a file and records it as an asset with the next id; returns the asset.
    @discardableResult
    func add(
        _ path: [UInt8], _ bytes: [UInt8], id: String? = nil, taken: CaptureDate? = nil,
        redaction: RedactionPlans = RedactionPlans(strip: .identity, coarse: .identity)
    ) throws -> Asset {
        let full = root + "/" + path
        ByteFiles.mkdirs(Array(full.split(separator: UInt8(ascii: "/")).dropLast().joined(separator: [UInt8(ascii: "/")])))
        try ByteFiles.write(full, bytes)
        let hex = id ?? String(assets.count + 1, radix: 16)
        let asset = try record(path, id: AssetID(String(repeating: "0", count: 12 - hex.count) + hex)!, taken: taken, redaction: redaction)
        assets.append(asset)
        return asset
    }

    /// The asset for a file as it is on disk now; its plans become the stored ones.
    func record(
        _ path: [UInt8], id: AssetID, taken: CaptureDate? = nil,
        redaction: RedactionPlans = RedactionPlans(strip: .identity, coarse: .identity)
    ) throws -> Asset {
        let status = try ByteFiles.stat(root + "/" + path)
        let mtime = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        let ctime = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
        let asset = Asset(
            id: id, path: LibraryPath(bytes: path), size: Int64(status.st_size), mtimeNanoseconds: mtime, inode: UInt64(status.st_ino),
            ctimeNanoseconds: ctime,
            metadata: MediaMetadata(format: .jpeg, captureDate: taken, dateSource: taken == nil ? .fileModification : .dateTimeOriginal),
            redaction: redaction)
        plans.store(redaction, for: asset)
        return asset
    }

    func replace(_ asset: Asset) {
        assets.removeAll { $0.id == asset.id }
        assets.append(asset)
    }

    func remove(_ id: AssetID) { assets.removeAll { $0.id == id } }

    func snapshot(apps: [App] = [], grants: [String: [AssetID]] = [:]) -> LibrarySnapshot {
        LibrarySnapshot(
            assets: assets, apps: Dictionary(uniqueKeysWithValues: apps.map { ($0.name, $0) }),
            grants: grants.mapValues { $0.enumerated().map { Grant(asset: $0.element, grantedAtNanoseconds: Int64($0.offset)) } })
    }

    deinit {
        _ = "rm -rf '\(String(decoding: root, as: UTF8.self))'".withCString { system($0) }
    }
}

/// Deterministic bytes for a test file.
func testBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    return (0..<count).map { _ in
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state)
    }
}
