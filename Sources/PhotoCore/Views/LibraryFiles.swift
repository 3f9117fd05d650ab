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
/// A directory is named on first use: until a request (or a patch) asks for a name or the
/// listing order, it holds only which assets it shows (`pending`), so a mount makes no
/// names at all. Naming a directory nobody looked at cannot break the rule that a file keeps
/// its name across changes (`ViewNaming`): its names were never shown. A directory made
/// from one that was named is named when made, from the names shown before.
final class LibraryDirectory: Sendable {
    /// What an unnamed directory holds.
    private enum State {
        /// The members' asset positions in no particular order, and the names the directory's
        /// subdirectories hold (which its files must not take).
        case pending(members: [Int32], reserved: [[UInt8]])
        case named(NamedFiles)
    }

    /// The directory's inode.
    let inode: UInt64
    let view: LibraryView
    /// The number of files.
    let count: Int
    private let state: Mutex<State>

    /// A directory named on first use: `members` in any order, `reserved` the names of its
    /// subdirectories.
    init(inode: UInt64, view: LibraryView, pending members: [Int32], reserved: [[UInt8]]) {
        self.inode = inode
        self.view = view
        count = members.count
        state = Mutex(.pending(members: members, reserved: reserved))
    }

    /// A named directory.
    init(inode: UInt64, view: LibraryView, named: NamedFiles) {
        self.inode = inode
        self.view = view
        count = named.members.count
        state = Mutex(.named(named))
    }

    /// A named directory: `members` in listing order.
    convenience init(inode: UInt64, view: LibraryView, members: [Int32], exceptions: NameExceptions, byName: NodeTable? = nil) {
        self.init(inode: inode, view: view, named: NamedFiles(members: members, exceptions: exceptions, byName: byName))
    }

    /// Whether names were made (a name or the listing was asked for, or it was made named).
    var isNamed: Bool {
        state.withLock {
            if case .named = $0 { return true }
            return false
        }
    }

    /// The members' asset positions in no particular order, named or not (what a patch of an
    /// unnamed directory starts from).
    var unorderedMembers: [Int32] {
        state.withLock {
            switch $0 {
            case .pending(let members, _): members
            case .named(let named): named.members
            }
        }
    }

    /// The names of the subdirectories an unnamed directory's files must not take; nil once named.
    var pendingReserved: [[UInt8]]? {
        state.withLock {
            if case .pending(_, let reserved) = $0 { return reserved }
            return nil
        }
    }

    /// The files' names and listing order, made now (over `assets`, the snapshot the
    /// positions are in) if nothing asked for them yet.
    func named(in assets: ChunkedArray<Asset>) -> NamedFiles {
        state.withLock { state in
            switch state {
            case .named(let named):
                return named
            case .pending(let members, let reserved):
                let named = LibraryNaming.name(members, view: view, reserved: reserved, assets: assets, previous: nil)
                state = .named(named)
                return named
            }
        }
    }

    /// The files in listing order (capture date then id; by name in folders).
    func members(in assets: ChunkedArray<Asset>) -> [Int32] { named(in: assets).members }

    /// The names that are not the asset's file name.
    func exceptions(in assets: ChunkedArray<Asset>) -> NameExceptions { named(in: assets).exceptions }

    /// Calls `body` with the name of the member at asset position `position`, read in place.
    @inline(__always)
    func withName<Result>(of position: Int32, in assets: ChunkedArray<Asset>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        named(in: assets).withName(of: position, in: assets, body)
    }

    /// A copy of the name of the member at asset position `position`.
    func name(of position: Int32, in assets: ChunkedArray<Asset>) -> [UInt8] { withName(of: position, in: assets) { Array($0) } }

    /// The asset position of the member called `name`, or nil.
    func member(named name: [UInt8], in assets: ChunkedArray<Asset>) -> Int32? { named(in: assets).member(named: name, in: assets) }

    /// The table by name, made now if no lookup made it yet.
    func nameTable(in assets: ChunkedArray<Asset>) -> NodeTable { named(in: assets).nameTable(in: assets) }

    /// The table by name if a lookup made it.
    var madeNameTable: NodeTable? {
        state.withLock {
            if case .named(let named) = $0 { return named.madeNameTable }
            return nil
        }
    }

    /// The hash of a name in the table by name.
    static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int { NodeTable.hash(parent: 0, name: name) }
}

/// The names of one library directory's files, once made: the members in listing order, the
/// names that are not the file name, and the table by name (made on the first lookup).
final class NamedFiles: Sendable {
    /// The files' asset positions in listing order.
    let members: [Int32]
    /// The names that are not the asset's file name.
    let exceptions: NameExceptions
    /// The members' asset positions by name, made on the first lookup by name.
    private let byName: Mutex<NodeTable?>

    init(members: [Int32], exceptions: NameExceptions, byName: NodeTable? = nil) {
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

    /// The asset position of the member called `name`, or nil.
    func member(named name: [UInt8], in assets: ChunkedArray<Asset>) -> Int32? {
        let table = nameTable(in: assets)
        return name.withUnsafeBufferPointer { wanted in
            table.find(hash: LibraryDirectory.hash(wanted)) { position in withName(of: position, in: assets) { $0.elementsEqual(wanted) } }
        }
    }

    /// The table by name, made now if no lookup made it yet.
    func nameTable(in assets: ChunkedArray<Asset>) -> NodeTable {
        byName.withLock { stored in
            if let stored { return stored }
            var table = NodeTable(capacity: members.count)
            for position in members { table.insert(position, hash: withName(of: position, in: assets) { LibraryDirectory.hash($0) }) }
            stored = table
            return table
        }
    }

    /// The table by name if a lookup made it.
    var madeNameTable: NodeTable? { byName.withLock { $0 } }
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
            count += directory.count
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
