/// The tables as bytes, for the file the daemon keeps them in beside the snapshot file
/// (host byte order: a cache of this machine). The file around them says which assets they
/// are of and hashes them whole; reading still checks every count and position against the
/// assets, so that bytes that are not such tables are refused rather than served.
///
/// Layout: the asset count; the id table's key, slots and count; the hidden positions; the
/// day and camera of each asset; the camera names; the folder representatives, members and
/// starts.
extension LibraryTables {
    /// Hands the tables' bytes to `sink`, in pieces, in order.
    public func write(to sink: (UnsafeRawBufferPointer) -> Void) {
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value) { sink($0) } }
        func put<T: FixedWidthInteger>(_ values: [T]) { values.withUnsafeBytes { sink($0) } }
        let count = assetCount
        put(UInt64(count))
        put(first.positions.key.k0)
        put(first.positions.key.k1)
        let table = first.positions.nodeTable
        let slots = table.storedSlots
        put(UInt64(slots.count))
        slots.forEachChunk { sink(UnsafeRawBufferPointer($0)) }
        put(UInt64(table.count))
        let hidden = first.hidden.sorted()
        put(UInt64(hidden.count))
        put(hidden)
        put(columns.days)
        put(columns.cameras)
        put(UInt64(columns.cameraNames.count))
        for name in columns.cameraNames {
            put(UInt32(name.count))
            put(name)
        }
        put(UInt64(folders.representatives.count))
        put(folders.representatives)
        put(folders.members)
        put(folders.starts.map { Int64($0) })
    }

    /// The tables in `raw` (what `write` wrote) when they are of `assetCount` assets and every
    /// count and position in them fits; nil otherwise.
    public init?(bytes raw: UnsafeRawBufferPointer, assetCount count: Int) {
        var reader = TableReader(raw: raw)
        guard reader.count() == count, let k0 = reader.take(UInt64.self), let k1 = reader.take(UInt64.self),
            let slotCount = reader.count(), let slots = reader.chunked(Int32.self, slotCount), let held = reader.count(),
            let table = NodeTable(slots: slots, count: held, limit: count),
            let hiddenCount = reader.count(), hiddenCount <= count, held == count - hiddenCount,
            let hidden = reader.array(Int32.self, hiddenCount), hidden.allSatisfy({ $0 >= 0 && Int($0) < count }),
            let days = reader.array(Int64.self, count), let cameras = reader.array(Int32.self, count),
            let cameraCount = reader.count()
        else { return nil }
        var cameraNames: [[UInt8]] = []
        for _ in 0..<min(cameraCount, raw.count) {
            guard let length = reader.take(UInt32.self), let name = reader.array(UInt8.self, Int(length)) else { return nil }
            cameraNames.append(name)
        }
        guard cameraNames.count == cameraCount, cameras.allSatisfy({ $0 >= 0 && Int($0) < cameraCount }),
            let groupCount = reader.count(), groupCount <= count,
            let representatives = reader.array(Int32.self, groupCount), representatives.allSatisfy({ $0 >= 0 && Int($0) < count }),
            let members = reader.array(Int32.self, count), members.allSatisfy({ $0 >= 0 && Int($0) < count }),
            let starts = reader.array(Int64.self, groupCount + 1), starts.first == 0, starts.last == Int64(count),
            zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }), reader.isAtEnd
        else { return nil }
        // Every asset in exactly one folder.
        var seen = [Bool](repeating: false, count: count)
        for position in members {
            guard !seen[Int(position)] else { return nil }
            seen[Int(position)] = true
        }
        let hiddenSet = Set(hidden)
        guard hiddenSet.count == hidden.count else { return nil }
        let shown =
            hiddenSet.isEmpty ? (0..<count).map { Int32($0) } : (0..<count).lazy.map { Int32($0) }.filter { !hiddenSet.contains($0) }
        self.init(
            first: FirstByID(positions: AssetPositions(table: table, key: IDHashKey(k0: k0, k1: k1)), shown: shown, hidden: hiddenSet),
            columns: LibraryColumns(days: days, cameras: cameras, cameraNames: cameraNames),
            folders: FolderGroups(representatives: representatives, members: members, starts: starts.map { Int($0) }))
    }
}

/// Reads the tables' sections, every length checked against the end.
private struct TableReader {
    let raw: UnsafeRawBufferPointer
    var at = 0

    var isAtEnd: Bool { at == raw.count }

    mutating func take<T: FixedWidthInteger>(_: T.Type) -> T? {
        guard MemoryLayout<T>.size <= raw.count - at else { return nil }
        defer { at += MemoryLayout<T>.size }
        return raw.loadUnaligned(fromByteOffset: at, as: T.self)
    }

    /// A count: a UInt64 that fits in an `Int` and is no larger than the bytes left.
    mutating func count() -> Int? {
        guard let value = take(UInt64.self), value <= UInt64(raw.count - at) else { return nil }
        return Int(value)
    }

    /// The bytes of `count` values of `T`, nil when fewer are left.
    private mutating func bytes<T>(_: T.Type, _ count: Int) -> UnsafeRawBufferPointer? {
        let (size, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
        guard count >= 0, !overflow, size <= raw.count - at else { return nil }
        defer { at += size }
        return UnsafeRawBufferPointer(rebasing: raw[at..<(at + size)])
    }

    mutating func array<T: FixedWidthInteger>(_ type: T.Type, _ count: Int) -> [T]? {
        guard let bytes = bytes(type, count) else { return nil }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
            initialized = count
        }
    }

    mutating func chunked<T: FixedWidthInteger>(_ type: T.Type, _ count: Int) -> ChunkedArray<T>? {
        guard let values = array(type, count) else { return nil }
        return values.withUnsafeBufferPointer { ChunkedArray(copying: $0) }
    }
}
