/// Gives the assets of one view directory their names: each keeps its own file name; when
/// two would share one, the others get `~` and the start of their asset id inserted before
/// the extension (`IMG_0001~3f9a.jpg`), with a longer piece of the id while still taken.
///
/// Stability: a name an asset had in the previous snapshot is kept as long as the asset
/// stays in the directory under the same file name, even if a newcomer would now win the
/// plain name. Without history (a fresh mount), the plain name goes to the first asset in
/// the directory's priority order (capture date, then id; selection order in app views),
/// and plain names are handed out before any suffixed one, so a real file that happens to
/// be called `IMG_0001~3f9a.jpg` keeps its name. Names are at most 255 bytes: a suffix
/// shortens the stem rather than the extension.
enum ViewNaming {
    /// The longest name Linux accepts.
    static let nameMax = 255

    /// One asset that wants a name, in priority order.
    struct Candidate {
        var base: [UInt8]
        var id: AssetID
        /// The name this (directory, asset) node had in the previous snapshot, if any.
        var previous: [UInt8]?
    }

    /// The names for `candidates` (same order), none equal to each other or to `reserved`.
    static func assign(_ candidates: [Candidate], reserved: Set<NameKey>) -> [[UInt8]] {
        assign(candidates, isReserved: { reserved.contains(NameKey($0)) })
    }

    /// The names for `candidates` (same order), none equal to each other or to a name
    /// `isReserved` accepts (the names a directory being patched already holds).
    static func assign(_ candidates: [Candidate], isReserved: ([UInt8]) -> Bool) -> [[UInt8]] {
        var taken = Set<NameKey>()
        taken.reserveCapacity(candidates.count)
        func isTaken(_ name: [UInt8], _ taken: Set<NameKey>) -> Bool { taken.contains(NameKey(name)) || isReserved(name) }
        var names = [[UInt8]?](repeating: nil, count: candidates.count)
        for (index, candidate) in candidates.enumerated() {
            guard let previous = candidate.previous, !isTaken(previous, taken), isDerived(previous, from: candidate.base, id: candidate.id)
            else { continue }
            names[index] = previous
            taken.insert(NameKey(previous))
        }
        // One hash per name: the insertion itself says whether the plain name was free.
        for (index, candidate) in candidates.enumerated() where names[index] == nil && !isReserved(candidate.base) {
            if taken.insert(NameKey(candidate.base)).inserted { names[index] = candidate.base }
        }
        for (index, candidate) in candidates.enumerated() where names[index] == nil {
            let name = suffixedName(candidate.base, id: candidate.id) { isTaken($0, taken) }
            names[index] = name
            taken.insert(NameKey(name))
        }
        return names.map { $0 ?? [] }
    }

    /// The first free suffixed form of `base`: 4, 5, ... 12 digits of the id, then the
    /// whole id with a counter (only reachable when real files mimic our suffixes).
    static func suffixedName(_ base: [UInt8], id: AssetID, avoiding taken: Set<NameKey>) -> [UInt8] {
        suffixedName(base, id: id) { taken.contains(NameKey($0)) }
    }

    /// `suffixedName(_:id:avoiding:)` with the taken names given by a predicate.
    static func suffixedName(_ base: [UInt8], id: AssetID, isTaken: ([UInt8]) -> Bool) -> [UInt8] {
        let digits = Array(id.rawValue.utf8)
        for length in 4...digits.count {
            let name = inserting(suffix: Array(digits.prefix(length)), into: base)
            if !isTaken(name) { return name }
        }
        var counter = 2
        while true {
            let name = inserting(suffix: digits + Array("-\(counter)".utf8), into: base)
            if !isTaken(name) { return name }
            counter += 1
        }
    }

    /// Whether `name` is `base` or one of the suffixed forms `suffixedName` could make for `id`.
    static func isDerived(_ name: [UInt8], from base: [UInt8], id: AssetID) -> Bool {
        if name == base { return true }
        guard name.contains(UInt8(ascii: "~")) else { return false }
        let digits = Array(id.rawValue.utf8)
        for length in 4...digits.count where inserting(suffix: Array(digits.prefix(length)), into: base) == name {
            return true
        }
        // Counter forms (real files mimicking our suffixes) are not kept: they are rare
        // enough that a rename there is acceptable.
        return false
    }

    /// `base` with `~suffix` inserted before its extension, the stem cut so the result
    /// fits in `nameMax` bytes (cut at a UTF-8 character boundary).
    static func inserting(suffix: [UInt8], into base: [UInt8]) -> [UInt8] {
        var stemPart = stem(of: base)
        let extensionPart = Array(base[stemPart.count...])
        let tail = [UInt8(ascii: "~")] + suffix + extensionPart
        if stemPart.count + tail.count > nameMax {
            var keep = max(0, nameMax - tail.count)
            while keep > 0, keep < stemPart.count, stemPart[keep] & 0xC0 == 0x80 { keep -= 1 }
            stemPart = Array(stemPart.prefix(keep))
        }
        return stemPart + tail
    }

    /// The name without its extension; a leading dot or an extension longer than 32
    /// bytes does not count as one.
    static func stem(of name: [UInt8]) -> [UInt8] {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, name.count - dot <= 33 else { return name }
        return Array(name[..<dot])
    }

    /// Whether `sanitized` keeps `name` as it is (read in place).
    static func isSafe(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !name.isEmpty, name.count <= nameMax, !name.contains(0), !name.contains(UInt8(ascii: "/")) else { return false }
        return !name.elementsEqual([0x2E]) && !name.elementsEqual([0x2E, 0x2E])
    }

    /// A name safe to show in a directory: no `/` or NUL, not empty, `.` or `..`.
    static func sanitized(_ name: [UInt8]) -> [UInt8] {
        if !name.isEmpty, name.count <= nameMax, !name.contains(0), !name.contains(UInt8(ascii: "/")), name != [0x2E], name != [0x2E, 0x2E]
        {
            return name
        }
        var clean = name.map { $0 == 0 || $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
        if clean.isEmpty || clean == [UInt8(ascii: ".")] || clean == [UInt8(ascii: "."), UInt8(ascii: ".")] {
            clean = [UInt8(ascii: "_")] + clean
        }
        if clean.count > nameMax { clean = Array(clean.prefix(nameMax)) }
        return clean
    }

    /// Byte-wise three-way comparison of two names (negative, zero or positive as `a`
    /// sorts before, with or after `b`), over at most the first `prefix` bytes of each.
    static func compare(_ a: [UInt8], _ b: [UInt8], prefix: Int = .max) -> Int {
        a.withUnsafeBufferPointer { left in
            b.withUnsafeBufferPointer { right in
                order(UnsafeBufferPointer(rebasing: left.prefix(prefix)), UnsafeBufferPointer(rebasing: right.prefix(prefix)))
            }
        }
    }

    /// Byte-wise three-way comparison of two names read in place (negative, zero or
    /// positive as `a` sorts before, with or after `b`).
    static func order(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(left.count, right.count)
        var index = 0
        while index < common {
            if left[index] != right[index] { return left[index] < right[index] ? -1 : 1 }
            index += 1
        }
        return left.count - right.count
    }

    /// Byte-wise order of two names (what `ls` in the C locale shows).
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        compare(a, b) < 0
    }
}
