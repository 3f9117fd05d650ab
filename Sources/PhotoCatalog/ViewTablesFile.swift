import PhotoCore

/// The library views' tables (`LibraryTables`) of one snapshot file's assets, kept beside
/// it so that a mount that reads the snapshot file builds the views from them instead of
/// passing over every asset again (about half a second at a million assets).
///
/// Like the snapshot file it is only a copy, believed under the same checks: it must be
/// this user's and private to them, name the catalog's asset generation and schema version
/// and the very snapshot file read (by that file's hash, so the assets are the same ones
/// in the same order), hash whole, and hold tables whose counts and positions fit those
/// assets. Anything else is ignored and the views are built from the assets.
///
/// Layout (host byte order): the magic, the format version, the generation, the schema
/// version, the snapshot file's hash, the asset count, the tables' bytes, and a hash of
/// everything before it.
enum ViewTablesFile {
    static let magic: [UInt8] = Array("PFSVIEWS".utf8)
    static let formatVersion: UInt32 = 1
    static let headerSize = 48

    /// What a file must name to be read: the snapshot file it was made from.
    struct Stamp: Equatable, Sendable {
        let snapshot: SnapshotFile.Stamp
        /// The snapshot file's own hash.
        let snapshotHash: UInt64
        let assetCount: Int
    }

    /// Writes `tables` at `stamp` to `path`, whole or not at all, readable by the owner only.
    static func write(_ tables: LibraryTables, stamp: Stamp, to path: String, stop: StopSignal? = nil) throws(SnapshotFileError) {
        _ = try SnapshotFile.writeReplacing(path, stop: stop) { (out: inout StreamingOutput) in
            out.append(magic)
            out.put(formatVersion)
            out.put(UInt32(0))
            out.put(stamp.snapshot.generation)
            out.put(stamp.snapshot.schemaVersion)
            out.put(stamp.snapshotHash)
            out.put(UInt64(stamp.assetCount))
            tables.write { out.append($0.bindMemory(to: UInt8.self)) }
        }
    }

    /// The tables of the file at `path` when it is whole and names `stamp`; nil otherwise.
    static func read(_ path: String, stamp: Stamp) -> LibraryTables? {
        SnapshotFile.withOwnFile(path, minimumSize: headerSize + 8) { decode($0, stamp: stamp) }
    }

    /// The tables in a file's bytes when they are whole and name `stamp`.
    static func decode(_ raw: UnsafeRawBufferPointer, stamp: Stamp) -> LibraryTables? {
        guard raw.count >= headerSize + 8, magic.withUnsafeBytes({ $0.elementsEqual(UnsafeRawBufferPointer(rebasing: raw[0..<8])) })
        else { return nil }
        func load<T>(_ offset: Int, _: T.Type) -> T { raw.loadUnaligned(fromByteOffset: offset, as: T.self) }
        // The stamp first: a file of another state is not hashed at all.
        guard load(8, UInt32.self) == formatVersion, load(16, Int64.self) == stamp.snapshot.generation,
            load(24, Int64.self) == stamp.snapshot.schemaVersion, load(32, UInt64.self) == stamp.snapshotHash,
            load(40, UInt64.self) == UInt64(stamp.assetCount),
            load(raw.count - 8, UInt64.self) == SnapshotFile.hash(UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 8)]))
        else { return nil }
        return LibraryTables(bytes: UnsafeRawBufferPointer(rebasing: raw[headerSize..<(raw.count - 8)]), assetCount: stamp.assetCount)
    }
}
