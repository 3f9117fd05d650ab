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
        let count = ordered.count
        guard count < 1 << 27 else { return nil }
        // 1. Files with the same name, found visiting the assets in storage order (in priority
        //    order each visit missed the cache); each name's bytes are kept once, back to back.
        let byPosition = storageOrder(ordered)
        var groupOf = [Int32](repeating: 0, count: count)
        // Each file's shortest suffixed name's hash, made on the same visit: most files that
        // lose their name take it, and then need no second read of their path.
        var suffixHashes = [Int](repeating: 0, count: count)
        var suffixFits = [Bool](repeating: true, count: count)
        var groupHashes: [Int] = []
        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        var groups = NameSlots(capacity: count)
        for index in byPosition {
            let group = assets[Int(ordered[index])].path.withBytes { path -> Int32? in
                let name = LibraryColumns.lastComponentInPlace(of: path)
                guard ViewNaming.isSafe(name) else { return nil }
                let hash = NameSlots.hash(name)
                let found = bytes.withUnsafeBufferPointer { stored in
                    groups.first(hash: hash) { code in
                        UnsafeBufferPointer(rebasing: stored[starts[Int(code)]..<starts[Int(code) + 1]]).elementsEqual(name)
                    }
                }
                if let found { return found }
                let group = Int32(groupHashes.count)
                groups.insert(code: group, hash: hash)
                groupHashes.append(hash)
                bytes.append(contentsOf: name)
                starts.append(bytes.count)
                return group
            }
            // A name that must be made safe: only the general way does that.
            guard let group else { return nil }
            groupOf[index] = group
            // Nil: too long for a suffix (settled below if the file needs one).
            if let hash = spelling(ordered[index], digits: 4, assets: assets, NameSlots.hash) {
                suffixHashes[index] = hash
            } else {
                suffixFits[index] = false
            }
        }
        // 2. The first file of each name in priority order keeps it, unless a subdirectory has it.
        var winner = [Int32](repeating: -1, count: groupHashes.count)
        for group in groupHashes.indices where !reserved.isEmpty {
            if reserved.contains(NameKey(Array(bytes[starts[group]..<starts[group + 1]]))) { winner[group] = -2 }
        }
        for index in 0..<count where winner[Int(groupOf[index])] == -1 { winner[Int(groupOf[index])] = Int32(index) }
        // 3. The others get the shortest free suffix, in priority order, against every name
        //    taken so far (a real file may be called like a suffixed name).
        var taken = NameSlots(capacity: count)
        for (group, index) in winner.enumerated() where index >= 0 {
            taken.insert(code: NameSlots.code(member: Int(index), digits: 0), hash: groupHashes[group])
        }
        var digits = [UInt8](repeating: 0, count: count)
        for index in 0..<count where winner[Int(groupOf[index])] != Int32(index) {
            // The shortest suffix, free unless a stored name shares its hash bits.
            if reserved.isEmpty, suffixFits[index], taken.first(hash: suffixHashes[index], { _ in true }) == nil {
                taken.insert(code: NameSlots.code(member: index, digits: 4), hash: suffixHashes[index])
                digits[index] = 4
                continue
            }
            var found = false
            for length in 4...AssetID.length {
                let outcome = spelling(ordered[index], digits: UInt8(length), assets: assets) { name -> Bool in
                    if !reserved.isEmpty, reserved.contains(NameKey(Array(name))) { return false }
                    let hash = NameSlots.hash(name)
                    let clash = taken.first(hash: hash) { code in spell(code, ordered: ordered, assets: assets) { $0.elementsEqual(name) } }
                    if clash != nil { return false }
                    taken.insert(code: NameSlots.code(member: index, digits: UInt8(length)), hash: hash)
                    return true
                }
                // Nil: longer than 255 bytes, which only the general way cuts.
                guard let free = outcome else { return nil }
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

    /// The indices of `ordered` (asset positions) in storage order: the assets are then read
    /// front to back.
    private static func storageOrder(_ ordered: [Int32]) -> [Int] {
        let end = Int(ordered.max() ?? -1) + 1
        // Most directories' positions are dense enough to be placed without sorting.
        guard end <= ordered.count * 4 else { return ordered.indices.sorted { ordered[$0] < ordered[$1] } }
        var slot = [Int32](repeating: -1, count: end)
        for (index, position) in ordered.enumerated() { slot[Int(position)] = Int32(index) }
        return slot.compactMap { $0 < 0 ? nil : Int($0) }
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

/// Names held while one directory is named: an open-addressing table (linear probing, at
/// most half full) whose slots hold a code standing for a name (a member and a number of
/// digits, or a group of equal file names) and 32 more bits of its hash, so that a probe
/// compares with a stored name only when those bits match.
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

    /// The hash of a name: the one a directory's table by name uses (seeded per process).
    static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int { LibraryDirectory.hash(name) }

    /// The first stored code with this hash that `matches` accepts (it is asked only about
    /// codes whose stored hash bits agree).
    func first(hash: Int, _ matches: (Int32) -> Bool) -> Int32? {
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        var slot = hash & mask
        while codes[slot] >= 0 {
            if tags[slot] == tag, matches(codes[slot]) { return codes[slot] }
            slot = (slot &+ 1) & mask
        }
        return nil
    }

    /// Stores a name not stored yet (the table never holds more than its capacity).
    mutating func insert(code: Int32, hash: Int) {
        var slot = hash & mask
        while codes[slot] >= 0 { slot = (slot &+ 1) & mask }
        codes[slot] = code
        tags[slot] = UInt32(truncatingIfNeeded: hash >> 32)
    }
}
