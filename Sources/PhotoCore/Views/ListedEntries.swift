import Synchronization

/// A large library listing's entries laid out one after another: inodes, what each entry
/// shows, and the names back to back in one buffer, in listing order.
///
/// A directory of the library views names its files from their assets' paths, each in a
/// buffer of its own place in memory: a cold `ls -f` of 100,000 names paid a cache miss on
/// every asset and on every path for each page the kernel asked for, more than the kernel's
/// own part of the listing. The first READDIR of a large listing lays its entries out here
/// once (the same misses, paid once), and every page after it, in this walk or the next
/// while the views are unchanged, reads them in sequence. About 20 bytes and the name per
/// entry, freed with the listing (kept listings are dropped at every views change).
struct ListedEntries: Sendable {
    /// Listings shorter than this are read in place: a few hundred misses cost less than a copy.
    static let smallest = 1024

    /// Each entry's inode.
    private(set) var inodes: [UInt64] = []
    /// Each entry's asset position (a file), or `-1 - position` of a subdirectory in the part.
    private(set) var items: [Int32] = []
    /// Where each entry's name ends in `names`.
    private(set) var nameEnds: [UInt32] = []
    private(set) var names: [UInt8] = []

    /// The entries of `listing`, read through it; nil when its names do not fit in 4 GiB.
    init?(_ listing: LibraryListing) {
        let count = listing.count
        inodes.reserveCapacity(count)
        items.reserveCapacity(count)
        nameEnds.reserveCapacity(count)
        names.reserveCapacity(count * 24)
        let (records, partNames, files, named, assets) = (
            listing.part.records, listing.part.names, listing.files, listing.named, listing.assets
        )
        for index in 0..<count {
            switch listing.entry(at: index) {
            case .directory(let child):
                inodes.append(records[Int(child)].inode)
                items.append(-1 - child)
                partNames.withName(records[Int(child)].name) { names.append(contentsOf: $0) }
            case .file(let asset):
                inodes.append(ViewInode.libraryFile(view: files.view, asset: assets[Int(asset)].id))
                items.append(asset)
                named.withName(of: asset, in: assets) { names.append(contentsOf: $0) }
            }
            guard names.count <= Int(UInt32.max) else { return nil }
            nameEnds.append(UInt32(names.count))
        }
    }

    /// Calls `body` with each entry from `position` on until it returns false: the inode,
    /// the name (valid only during the call) and the kind (a subdirectory's read from
    /// `records`).
    func forEach(
        from position: Int, records: ChunkedArray<PartNode>,
        _ body: (_ inode: UInt64, _ name: UnsafeBufferPointer<UInt8>, _ kind: ViewNodeKind) -> Bool
    ) {
        guard position < inodes.count else { return }
        names.withUnsafeBufferPointer { names in
            var start = position == 0 ? 0 : Int(nameEnds[position - 1])
            for index in position..<inodes.count {
                let end = Int(nameEnds[index])
                let item = items[index]
                let kind =
                    item >= 0 ? ViewNodeKind.file(asset: item, policy: .keep, metadata: .keep) : records[Int(-1 - item)].kind
                guard body(inodes[index], UnsafeBufferPointer(rebasing: names[start..<end]), kind) else { return }
                start = end
            }
        }
    }
}

/// Where a listing keeps its `ListedEntries` once made; shared by the copies of the listing
/// (a kept listing and the one a READDIR reads are copies of one value).
final class ListedEntriesSlot: Sendable {
    private enum State {
        case none
        case making
        case made(ListedEntries)
        /// The listing's names do not fit: read in place for good.
        case unmade
    }

    private let state = Mutex<State>(.none)

    /// The entries, made by `make` on first use; nil while another thread makes them (the
    /// caller reads the listing in place meanwhile rather than waiting) or when they could
    /// not be made.
    func entries(orMake make: () -> ListedEntries?) -> ListedEntries? {
        let mine = state.withLock { state -> Bool? in
            switch state {
            case .none:
                state = .making
                return true
            case .making, .unmade: return nil
            case .made: return false
            }
        }
        switch mine {
        case nil: return nil
        case false?:
            return state.withLock { state in
                if case .made(let entries) = state { return entries }
                return nil
            }
        case true?:
            let made = make()
            state.withLock { $0 = made.map { .made($0) } ?? .unmade }
            return made
        }
    }
}
