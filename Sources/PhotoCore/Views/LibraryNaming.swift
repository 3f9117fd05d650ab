/// Names the files of one directory of the library views (`LibraryDirectory`): puts them in
/// priority order, gives each its file name or, on a clash, a suffixed one (`ViewNaming`),
/// keeps only the names that are not the file name (`NameExceptions`), and puts the files in
/// listing order.
///
/// Priority order is capture date then id, except in `folders`, where it is path then id
/// (files of one folder differ only by file name there, and a clash comes from a name
/// made safe). Listing order is the priority order, except in `folders`, where it is by name.
/// The order the members come in does not matter: the same members always get the same names.
enum LibraryNaming {
    /// Names `members` (asset positions in `assets`) as the files of a directory of `view`
    /// holding subdirectories called `reserved`; `previous` gives the name a file had in the
    /// tree being replaced, which it keeps when it still fits (see `ViewNaming`).
    static func name(
        _ members: [Int32], view: LibraryView, reserved: [[UInt8]], assets: ChunkedArray<Asset>, previous: ((Int32) -> [UInt8]?)?
    ) -> NamedFiles {
        let ordered = priorityOrder(members, view: view, assets: assets)
        if previous == nil, let digits = fastSuffixes(ordered, reserved: Set(reserved.map(NameKey.init)), assets: assets) {
            return named(ordered, digits: digits, view: view, assets: assets)
        }
        var fileNames: [[UInt8]] = []
        fileNames.reserveCapacity(ordered.count)
        let candidates = ordered.map { position -> ViewNaming.Candidate in
            let fileName = fileName(position, in: assets)
            fileNames.append(fileName)
            return ViewNaming.Candidate(base: ViewNaming.sanitized(fileName), id: assets[Int(position)].id, previous: previous?(position))
        }
        let names = ViewNaming.assign(candidates, reserved: Set(reserved.map(NameKey.init)))
        var exceptions = NameExceptions()
        for (index, position) in ordered.enumerated() where names[index] != fileNames[index] {
            exceptions.set(names[index], of: position, fileName: fileNames[index], id: candidates[index].id)
        }
        var listed = ordered
        if view.listsByName, !zip(names, names.dropFirst()).allSatisfy({ !ViewNaming.precedes($1, $0) }) {
            listed = ordered.indices.sorted { ViewNaming.precedes(names[$0], names[$1]) }.map { ordered[$0] }
        }
        return NamedFiles(members: listed, exceptions: exceptions)
    }

    /// The files `ordered` (in priority order) named with `digits` digits of their ids
    /// (`fastSuffixes`), in listing order.
    private static func named(_ ordered: [Int32], digits: [UInt8], view: LibraryView, assets: ChunkedArray<Asset>) -> NamedFiles {
        var exceptions = NameExceptions()
        exceptions.reserveSuffixes(digits.count { $0 > 0 })
        for (index, count) in digits.enumerated() where count > 0 { exceptions.setSuffix(count, of: ordered[index]) }
        guard view.listsByName else { return NamedFiles(members: ordered, exceptions: exceptions) }
        // Names spelled in place; `fastSuffixes` checked that each fits.
        let precedes = { (a: Int, b: Int) -> Bool in
            spelling(ordered[a], digits: digits[a], assets: assets) { x in
                spelling(ordered[b], digits: digits[b], assets: assets) { y in ViewNaming.order(x, y) < 0 } ?? false
            } ?? false
        }
        let indices = Array(ordered.indices)
        if zip(indices, indices.dropFirst()).allSatisfy({ !precedes($1, $0) }) {
            return NamedFiles(members: ordered, exceptions: exceptions)
        }
        return NamedFiles(members: indices.sorted(by: precedes).map { ordered[$0] }, exceptions: exceptions)
    }

    /// `members` in priority order: by capture date then id, or (folders) by path then id.
    static func priorityOrder(_ members: [Int32], view: LibraryView, assets: ChunkedArray<Asset>) -> [Int32] {
        if view.listsByName { return members.sorted { precedes($0, $1, view: view, in: assets) } }
        // The keys are read once per member, in one pass, and sorted as plain words.
        var keys: [(date: Int64, id: UInt64, position: Int32)] = []
        keys.reserveCapacity(members.count)
        for position in members {
            keys.append((assets[Int(position)].effectiveDate.sortKey, assets[Int(position)].id.number, position))
        }
        keys.sort { $0.date != $1.date ? $0.date < $1.date : $0.id < $1.id }
        return keys.map(\.position)
    }

    /// The file name of the asset at `position` (the last component of its path).
    static func fileName(_ position: Int32, in assets: ChunkedArray<Asset>) -> [UInt8] {
        assets[Int(position)].path.withBytes { Array(LibraryColumns.lastComponentInPlace(of: $0)) }
    }

    /// Whether asset `a` comes before asset `b` in the priority order of `view`.
    static func precedes(_ a: Int32, _ b: Int32, view: LibraryView, in assets: ChunkedArray<Asset>) -> Bool {
        if view.listsByName {
            let order = assets[Int(a)].path.withBytes { x in assets[Int(b)].path.withBytes { y in ViewNaming.order(x, y) } }
            return order == 0 ? assets[Int(a)].id < assets[Int(b)].id : order < 0
        }
        let (ka, kb) = (assets[Int(a)].effectiveDate.sortKey, assets[Int(b)].effectiveDate.sortKey)
        return ka != kb ? ka < kb : assets[Int(a)].id < assets[Int(b)].id
    }
}
