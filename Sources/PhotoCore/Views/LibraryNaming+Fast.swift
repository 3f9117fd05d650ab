extension LibraryNaming {
    /// `ViewNaming.assign` for a large directory of the date-ordered views with no names to
    /// keep, without making a name: `library/all` of a million photos has about 300,000
    /// distinct file names, so most files get a suffix, and making each candidate's name and
    /// each suffixed form as an array (and a set of them) took seconds.
    ///
    /// A name here is a member and a number of id digits (0 for the file name itself), hashed
    /// and compared by spelling it into a stack buffer. Gives the same names as
    /// `ViewNaming.assign`; returns nil for what it does not handle (a file name that must be
    /// made safe, a suffixed name longer than 255 bytes, a counter form): the caller names
    /// those directories the general way.
    ///
    /// - `ordered`: the members (asset positions) in priority order.
    /// - Returns: per member of `ordered`, its number of id digits (0: its file name).
    static func fastSuffixes(_ ordered: [Int32], reserved: Set<NameKey>, assets: ChunkedArray<Asset>) -> [UInt8]? {
        var slots = NameSlots(capacity: ordered.count)
        var digits = [UInt8](repeating: 0, count: ordered.count)
        var losers: [Int] = []
        // File names first, in priority order: the first asset with a name keeps it.
        for (index, position) in ordered.enumerated() {
            let outcome = spelling(position, digits: 0, assets: assets) { name -> Bool? in
                guard ViewNaming.isSafe(name) else { return nil }
                if !reserved.isEmpty, reserved.contains(NameKey(Array(name))) { return false }
                let hash = NameSlots.hash(name)
                if slots.contains(name, hash: hash, spelling: { spell($0, ordered: ordered, assets: assets, $1) }) { return false }
                slots.insert(code: NameSlots.code(member: index, digits: 0), hash: hash)
                return true
            }
            // Nil: a name to make safe, which only the general way does.
            guard let kept = outcome ?? nil else { return nil }
            if !kept { losers.append(index) }
        }
        // Then suffixes, in priority order: the shortest free one.
        for index in losers {
            var found = false
            for length in 4...AssetID.length {
                let outcome = spelling(ordered[index], digits: UInt8(length), assets: assets) { name -> Bool? in
                    if !reserved.isEmpty, reserved.contains(NameKey(Array(name))) { return false }
                    let hash = NameSlots.hash(name)
                    if slots.contains(name, hash: hash, spelling: { spell($0, ordered: ordered, assets: assets, $1) }) { return false }
                    slots.insert(code: NameSlots.code(member: index, digits: UInt8(length)), hash: hash)
                    return true
                }
                // Nil: longer than 255 bytes.
                guard let free = outcome ?? nil else { return nil }
                if free {
                    digits[index] = UInt8(length)
                    found = true
                    break
                }
            }
            // Every suffix taken: only a counter form is left (real files mimicking suffixes).
            if !found { return nil }
        }
        return digits
    }

    /// Calls `body` with the name `code` stands for (member and digits, see `NameSlots.code`).
    private static func spell(
        _ code: Int32, ordered: [Int32], assets: ChunkedArray<Asset>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        let (member, digits) = NameSlots.decode(code)
        return spelling(ordered[member], digits: digits, assets: assets) { body($0) } ?? false
    }

    /// Calls `body` with the file name of the asset at `position` with `digits` digits of its
    /// id inserted as a suffix (none for 0), spelled in a stack buffer; nil when that name
    /// would be longer than 255 bytes.
    static func spelling<Result>(
        _ position: Int32, digits: UInt8, assets: ChunkedArray<Asset>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        let id = assets[Int(position)].id.number
        return assets[Int(position)].path.withBytes { path -> Result? in
            let fileName = LibraryColumns.lastComponentInPlace(of: path)
            if digits == 0 { return body(fileName) }
            // Where the extension starts, as `ViewNaming.stem` decides.
            var stemEnd = fileName.count
            if let dot = fileName.lastIndex(of: UInt8(ascii: ".")), dot > 0, fileName.count - dot <= 33 { stemEnd = dot }
            let length = fileName.count + 1 + Int(digits)
            guard length <= ViewNaming.nameMax else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
                var at = 0
                for index in 0..<stemEnd {
                    buffer[at] = fileName[index]
                    at += 1
                }
                buffer[at] = UInt8(ascii: "~")
                at += 1
                for index in 0..<Int(digits) {
                    let nibble = UInt8(truncatingIfNeeded: id >> UInt64(4 * (AssetID.length - 1 - index))) & 0xF
                    buffer[at] = nibble < 10 ? 48 + nibble : 87 + nibble
                    at += 1
                }
                for index in stemEnd..<fileName.count {
                    buffer[at] = fileName[index]
                    at += 1
                }
                return body(UnsafeBufferPointer(buffer))
            }
        }
    }
}

/// The names taken so far in one directory being named: an open-addressing table (linear
/// probing, at most half full) whose slots hold a name's code (member and digits) and 32
/// bits of its hash, so that a probe spells a stored name only when those bits match.
struct NameSlots {
    private var codes: [Int32]
    private var tags: [UInt32]
    private let mask: Int

    init(capacity: Int) {
        var size = 16
        while size < capacity &* 2 { size <<= 1 }
        codes = [Int32](repeating: -1, count: size)
        tags = [UInt32](repeating: 0, count: size)
        mask = size - 1
    }

    /// A member index (below 2^27) and a number of id digits (0...12) in one word.
    static func code(member: Int, digits: UInt8) -> Int32 { Int32(member) | Int32(digits) << 27 }

    static func decode(_ code: Int32) -> (member: Int, digits: UInt8) { (Int(code & (1 << 27 - 1)), UInt8(code >> 27)) }

    /// The hash of a name (seeded per process, like every table of names here).
    static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(name))
        return hasher.finalize()
    }

    /// Whether a stored name equals `name`; `spelling` compares a stored code's name with it.
    func contains(_ name: UnsafeBufferPointer<UInt8>, hash: Int, spelling: (Int32, (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool) -> Bool {
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        var slot = hash & mask
        while codes[slot] >= 0 {
            if tags[slot] == tag, spelling(codes[slot], { $0.elementsEqual(name) }) { return true }
            slot = (slot &+ 1) & mask
        }
        return false
    }

    /// Stores a name not stored yet (the table never holds more than its capacity).
    mutating func insert(code: Int32, hash: Int) {
        var slot = hash & mask
        while codes[slot] >= 0 { slot = (slot &+ 1) & mask }
        codes[slot] = code
        tags[slot] = UInt32(truncatingIfNeeded: hash >> 32)
    }
}
