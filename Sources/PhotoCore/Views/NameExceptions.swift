/// The names of one library directory's files that are not their assets' file names, by
/// asset position. Most are the file name with `~` and the first digits of the asset id
/// inserted (`ViewNaming`'s suffixes: a generated or camera library repeats `IMG_0001.jpg`
/// across folders, so at 1,000,000 assets most files of `library/all` have one): those keep
/// only the number of digits, one byte, and the name is made again when read. Any other
/// name (one made safe, a counter form) is kept whole.
struct NameExceptions: Sendable {
    /// Suffixed names: the number of id digits, by asset position.
    private(set) var suffixed: [Int32: UInt8] = [:]
    /// Other names, by asset position.
    private(set) var named: [Int32: [UInt8]] = [:]

    init() {}

    var isEmpty: Bool { suffixed.isEmpty && named.isEmpty }

    /// The number of names held.
    var count: Int { suffixed.count + named.count }

    /// Calls `body` with the name of the asset at `position` of `assets` when it is an
    /// exception (a suffixed name made in a stack buffer, not allocated: a listing of
    /// `library/all` reads a million of them), else returns nil.
    @inline(__always)
    func withName<Result>(of position: Int32, in assets: ChunkedArray<Asset>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        if let digits = suffixed[position] {
            if let made = LibraryNaming.spelling(position, digits: digits, assets: assets, body) { return made }
            // A name cut to fit 255 bytes: made the long way.
            return name(of: position, in: assets).map { $0.withUnsafeBufferPointer(body) }
        }
        return named[position].map { $0.withUnsafeBufferPointer(body) }
    }

    /// The name of the asset at `position` of `assets` when it is an exception, else nil.
    func name(of position: Int32, in assets: ChunkedArray<Asset>) -> [UInt8]? {
        if let digits = suffixed[position] {
            let fileName = LibraryNaming.fileName(position, in: assets)
            return ViewNaming.inserting(suffix: Array(assets[Int(position)].id.rawValue.utf8.prefix(Int(digits))), into: fileName)
        }
        return named[position]
    }

    /// Records `name` for the asset at `position`, whose file name is `fileName` and id `id`
    /// (nothing when the name is the file name).
    mutating func set(_ name: [UInt8], of position: Int32, fileName: [UInt8], id: AssetID) {
        suffixed[position] = nil
        named[position] = nil
        guard name != fileName else { return }
        if ViewNaming.sanitized(fileName) == fileName, name.count > fileName.count {
            let digits = Array(id.rawValue.utf8)
            for length in 4...digits.count where ViewNaming.inserting(suffix: Array(digits.prefix(length)), into: fileName) == name {
                suffixed[position] = UInt8(length)
                return
            }
        }
        named[position] = name
    }

    /// Records that the asset at `position` is named its file name with `digits` digits of
    /// its id inserted (`LibraryNaming.fastSuffixes` decided it fits in 255 bytes).
    mutating func setSuffix(_ digits: UInt8, of position: Int32) {
        named[position] = nil
        suffixed[position] = digits
    }

    /// Makes room for `count` suffixed names.
    mutating func reserveSuffixes(_ count: Int) { suffixed.reserveCapacity(count) }

    /// These names without the positions in `gone`, and those in `moved` at their new positions.
    func patched(dropping gone: Set<Int32>, moving moved: [Int32: Int32]) -> NameExceptions {
        var result = self
        var movedSuffixes: [(Int32, UInt8)] = []
        var movedNames: [(Int32, [UInt8])] = []
        for (from, to) in moved {
            if let digits = result.suffixed.removeValue(forKey: from) { movedSuffixes.append((to, digits)) }
            if let name = result.named.removeValue(forKey: from) { movedNames.append((to, name)) }
        }
        for position in gone {
            result.suffixed[position] = nil
            result.named[position] = nil
        }
        for (position, digits) in movedSuffixes { result.suffixed[position] = digits }
        for (position, name) in movedNames { result.named[position] = name }
        return result
    }
}
