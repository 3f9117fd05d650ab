import Synchronization

/// The four library views; a library file's inode number says which one it is in.
enum LibraryView: UInt8, Sendable, CaseIterable {
    case all = 0
    case byDate = 1
    case byCamera = 2
    case folders = 3

    /// Whether the view lists files by name (folders) rather than by capture date, then id.
    var listsByName: Bool { self == .folders }
}

/// The files of one directory of a library view, held as positions into the snapshot's
/// assets rather than as nodes: a million-asset library has four million such files, and
/// a stored node per file (with its entries in two hash tables) cost about 70 bytes each.
///
/// A file is named after its asset's file name (the last component of its path, read in
/// place); only the names that differ (a clash in the directory, a name that had to be
/// made safe) are kept. The table that finds a file by name is made on the first lookup.
final class LibraryDirectory: Sendable {
    /// The directory's inode.
    let inode: UInt64
    let view: LibraryView
    /// The files' asset positions in listing order (capture date then id; by name in folders).
    let members: [Int32]
    /// The names that are not the asset's file name.
    let exceptions: NameExceptions
    /// The members' asset positions by name, made on the first lookup by name.
    private let byName: Mutex<NodeTable?>

    init(inode: UInt64, view: LibraryView, members: [Int32], exceptions: NameExceptions, byName: NodeTable? = nil) {
        self.inode = inode
        self.view = view
        self.members = members
        self.exceptions = exceptions
        self.byName = Mutex(byName)
    }

    /// Calls `body` with the name of the member at asset position `position`, read in place.
    @inline(__always)
    func withName<Result>(of position: Int32, in assets: ChunkedArray<Asset>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if !exceptions.isEmpty, let named = exceptions.withName(of: position, in: assets, body) { return named }
        return assets[Int(position)].path.withBytes { body(LibraryColumns.lastComponentInPlace(of: $0)) }
    }

    /// A copy of the name of the member at asset position `position`.
    func name(of position: Int32, in assets: ChunkedArray<Asset>) -> [UInt8] { withName(of: position, in: assets) { Array($0) } }

    /// The asset position of the member called `name`, or nil.
    func member(named name: [UInt8], in assets: ChunkedArray<Asset>) -> Int32? {
        let table = nameTable(in: assets)
        return name.withUnsafeBufferPointer { wanted in
            table.find(hash: Self.hash(wanted)) { position in withName(of: position, in: assets) { $0.elementsEqual(wanted) } }
        }
    }

    /// The table by name, made now if no lookup made it yet.
    func nameTable(in assets: ChunkedArray<Asset>) -> NodeTable {
        byName.withLock { stored in
            if let stored { return stored }
            var table = NodeTable(capacity: members.count)
            for position in members { table.insert(position, hash: withName(of: position, in: assets) { Self.hash($0) }) }
            stored = table
            return table
        }
    }

    /// The table by name if a lookup made it.
    var madeNameTable: NodeTable? { byName.withLock { $0 } }

    /// The hash of a name in the table by name.
    static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int { NodeTable.hash(parent: 0, name: name) }
}

/// The files of the library views over one snapshot: the directories that hold files
/// (`LibraryDirectory`), and for each asset the directory that shows it in each view, so
/// that a library file's inode number (view and asset id) leads to its directory and name
/// without a table of files.
final class LibraryFiles: Sendable {
    /// The directories holding files; nil where a patch removed one.
    let directories: [LibraryDirectory?]
    /// Directory index by directory inode.
    let indexByInode: [UInt64: Int32]
    /// Per view but `all` (by-date, by-camera, folders), per asset position, the index of
    /// the directory that shows the asset (-1 when none; stale for positions no longer shown).
    let directoryOf: [ChunkedArray<Int32>]
    /// The index of `library/all`'s files.
    let allIndex: Int32
    /// The number of files.
    let count: Int

    init(directories: [LibraryDirectory?], directoryOf: [ChunkedArray<Int32>], allIndex: Int32) {
        self.directories = directories
        var indexByInode: [UInt64: Int32] = [:]
        var count = 0
        for (index, directory) in directories.enumerated() {
            guard let directory else { continue }
            indexByInode[directory.inode] = Int32(index)
            count += directory.members.count
        }
        self.indexByInode = indexByInode
        self.directoryOf = directoryOf
        self.allIndex = allIndex
        self.count = count
    }

    /// The files of the directory with this inode, if it holds any.
    func directory(inode: UInt64) -> LibraryDirectory? {
        indexByInode[inode].flatMap { directories[Int($0)] }
    }

    /// The directory that shows the asset at `position` in `view`.
    func directory(of position: Int32, view: LibraryView) -> LibraryDirectory? {
        let index: Int32
        if view == .all {
            index = allIndex
        } else {
            let column = directoryOf[Int(view.rawValue) - 1]
            guard position >= 0, Int(position) < column.count else { return nil }
            index = column[Int(position)]
        }
        guard index >= 0, Int(index) < directories.count else { return nil }
        return directories[Int(index)]
    }

    /// The node of the library file `inode`, or nil when no such file is shown.
    func node(inode: UInt64, assets: ChunkedArray<Asset>, firstByID: AssetPositions) -> ViewNode? {
        guard let (view, id) = ViewInode.libraryFile(inode), let position = firstByID.position(of: id, in: assets),
            let directory = directory(of: position, view: view)
        else { return nil }
        return ViewNode(libraryFile: inode, parent: directory.inode, name: directory.name(of: position, in: assets), asset: position)
    }

    /// The name file `inode` has in directory `parent` when it shows the asset `id`, else nil.
    func name(ofFile inode: UInt64, in parent: UInt64, asset id: AssetID, assets: ChunkedArray<Asset>, firstByID: AssetPositions)
        -> [UInt8]?
    {
        guard let (view, _) = ViewInode.libraryFile(inode), let position = firstByID.position(of: id, in: assets),
            let directory = directory(of: position, view: view), directory.inode == parent
        else { return nil }
        return directory.name(of: position, in: assets)
    }
}
