/// An open-addressing hash table of node positions (linear probing, never more than half
/// full), keyed by whatever the caller hashes and compares: the view tree keeps one by
/// inode and one by (parent, name). Four bytes per slot instead of a dictionary entry with
/// its key: on 400,000 nodes the two tables take 8 MB rather than about 35 MB, and they
/// are built without copying a name.
///
/// Hashes come from `Hasher`, seeded per process, so names chosen to collide cannot slow
/// lookups down on purpose.
struct NodeTable: Sendable {
    private var slots: ChunkedArray<Int32>
    private var mask: Int
    private(set) var count = 0

    /// A table for about `capacity` positions (it grows past that).
    init(capacity: Int) {
        var size = 16
        while size < capacity &* 2 { size <<= 1 }
        slots = ChunkedArray(repeating: -1, count: size)
        mask = size - 1
    }

    /// A table as it was kept (`LibraryTables`): nil unless `slots` is a power of two of at
    /// least 16 slots, at most half full with `count` positions, each below `limit`. Only the
    /// hashes decide whether lookups find what was stored: the caller must know they are the same.
    init?(slots: ChunkedArray<Int32>, count: Int, limit: Int) {
        guard slots.count >= 16, slots.count & (slots.count - 1) == 0, count >= 0, count &* 2 <= slots.count else { return nil }
        var held = 0
        for position in slots where position != -1 {
            guard position >= 0, Int(position) < limit else { return nil }
            held += 1
        }
        guard held == count, slots.count - held > 0 else { return nil }
        self.slots = slots
        self.mask = slots.count - 1
        self.count = count
    }

    /// The slots, as a kept table holds them.
    var storedSlots: ChunkedArray<Int32> { slots }

    /// The first position on `hash`'s probe path that `matches` accepts.
    func find(hash: Int, _ matches: (Int32) -> Bool) -> Int32? {
        var slot = hash & mask
        // At most half the slots are used: an empty one ends every probe.
        while true {
            let position = slots[slot]
            if position < 0 { return nil }
            if matches(position) { return position }
            slot = (slot &+ 1) & mask
        }
    }

    /// Every stored position, in slot order.
    var positions: [Int32] {
        var stored: [Int32] = []
        stored.reserveCapacity(count)
        for position in slots where position >= 0 { stored.append(position) }
        return stored
    }

    /// Whether the next `insert` needs `grow` first.
    var isFull: Bool { (count &+ 1) &* 2 > slots.count }

    /// Adds a position (call `grow` first when `isFull`).
    mutating func insert(_ position: Int32, hash: Int) {
        var slot = hash & mask
        while slots[slot] >= 0 { slot = (slot &+ 1) & mask }
        slots[slot] = position
        count += 1
    }

    /// Adds the positions `0..<count` to an empty table, `hash` giving each one's hash. They
    /// go in in the order of their home slots rather than one by one in position order: at
    /// a million positions each insert in position order lands in a random slot of an 8 MB
    /// table (a cache and TLB miss apiece, most of a large mount's id table), while in slot
    /// order the writes move through the table once. Lookups find the same positions
    /// whatever the order they were inserted in.
    mutating func insertAll(count: Int, hash: (Int32) -> Int) {
        precondition(self.count == 0 && count <= Int(Int32.max))
        while (count &* 2) > slots.count { grow { _ in 0 } }
        var keyed: [UInt64] = []
        keyed.reserveCapacity(count)
        for position in 0..<count {
            keyed.append(UInt64(hash(Int32(position)) & mask) << 32 | UInt64(position))
        }
        keyed.sort()
        for key in keyed {
            var slot = Int(key >> 32)
            while slots[slot] >= 0 { slot = (slot &+ 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)
        }
        self.count = count
    }

    /// Removes a position stored under `hash`; `rehash` gives the hash of each stored
    /// position. The entries after it on its probe run move back into the gap, so every
    /// probe still ends at an empty slot (no tombstones to wear the table out).
    mutating func remove(_ position: Int32, hash: Int, _ rehash: (Int32) -> Int) {
        var hole = hash & mask
        while slots[hole] != position {
            if slots[hole] < 0 { return }
            hole = (hole &+ 1) & mask
        }
        var next = (hole &+ 1) & mask
        while slots[next] >= 0 {
            let home = rehash(slots[next]) & mask
            // The entry may fill the hole unless its home lies cyclically in (hole, next].
            let reachable = hole < next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !reachable {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        slots[hole] = -1
        count -= 1
    }

    /// Doubles the table; `rehash` gives the hash of each stored position.
    mutating func grow(_ rehash: (Int32) -> Int) {
        let old = slots
        slots = ChunkedArray(repeating: -1, count: old.count * 2)
        mask = slots.count - 1
        count = 0
        for position in old where position >= 0 { insert(position, hash: rehash(position)) }
    }

    /// The hash of an inode number.
    static func hash(inode: UInt64) -> Int {
        var hasher = Hasher()
        hasher.combine(inode)
        return hasher.finalize()
    }

    /// The hash of a name in a directory.
    static func hash(parent: UInt64, name: [UInt8]) -> Int {
        name.withUnsafeBufferPointer { hash(parent: parent, name: $0) }
    }

    /// The hash of a name in a directory, the name read in place.
    static func hash(parent: UInt64, name: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(parent)
        hasher.combine(bytes: UnsafeRawBufferPointer(name))
        return hasher.finalize()
    }
}

/// A name as a set or dictionary key, hashed in one call over its bytes (an array of
/// bytes hashes one element at a time, which made naming 100,000 files slow).
struct NameKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(bytes.count)
    }
}
