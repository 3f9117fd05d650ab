import PhotoCore

/// What one index run did.
public struct IndexSummary: Sendable, Hashable {
    /// Files catalogued for the first time.
    public var new = 0
    /// Files whose content changed at the same path (they get a new id: different content,
    /// different id; grants on the old id stay in the catalog but name no file now).
    public var changed = 0
    /// Files found at a new path with content the catalog knew (renamed or moved): they
    /// keep their id and grants.
    public var moved = 0
    /// Catalogued files that are gone (their grants stay, and apply again if the same
    /// content comes back).
    public var removed = 0
    /// Files that could not be read (recorded in `failures`).
    public var failed = 0
    /// Files that are not a photo or video format photofs knows (recorded in `failures`):
    /// not a failure, so counted apart.
    public var notAssets = 0
    /// Files skipped because size, mtime, inode and ctime matched the catalog.
    public var unchanged = 0
    /// Files read again because their stat changed, whose fingerprint was the same (they
    /// keep their id, with fresh metadata and plans).
    public var touched = 0
    /// Folders that could not be read: nothing below them was changed in the catalog.
    public var unreadableFolders: [LibraryPath] = []
    /// Wall-clock time of the run, in seconds.
    public var seconds: Double = 0
    /// Ids whose file changed or that left the catalog (changed, removed, became a
    /// failure, or touched: same bytes, new mtime): caches of their content and
    /// attributes must be dropped.
    public var invalidatedIDs: Set<AssetID> = []
    /// Ids that now live at another path.
    public var movedIDs: Set<AssetID> = []
    /// Ids that entered the catalog.
    public var newIDs: Set<AssetID> = []

    public init() {}

    /// This run followed by `later`: counts added, id sets joined, unreadable folders as
    /// `later` saw them.
    public func merged(with later: IndexSummary) -> IndexSummary {
        var sum = later
        sum.new += new
        sum.changed += changed
        sum.moved += moved
        sum.removed += removed
        sum.failed += failed
        sum.notAssets += notAssets
        sum.touched += touched
        sum.seconds += seconds
        sum.invalidatedIDs.formUnion(invalidatedIDs)
        sum.movedIDs.formUnion(movedIDs)
        sum.newIDs.formUnion(newIDs)
        return sum
    }

    /// Every id whose asset row was written or deleted by the run: a snapshot taken before
    /// it is brought up to date by reading these rows again (`Catalog.snapshot(updating:changed:)`).
    public var changedIDs: Set<AssetID> {
        invalidatedIDs.union(movedIDs).union(newIDs)
    }

    /// Whether the run changed anything in the catalog.
    public var changedCatalog: Bool {
        new + changed + moved + removed + touched > 0 || !invalidatedIDs.isEmpty
    }
}

/// Where an index run is, for a progress bar.
public enum IndexProgress: Sendable, Hashable {
    /// Walking the tree: the files found so far (no totals are known yet).
    case scanning(filesFound: Int)
    /// Reading new and changed files: totals are known, so an ETA is possible.
    case analyzing(IndexCounts)

    /// How far the reading is; nil while the tree is walked.
    public var counts: IndexCounts? {
        if case .analyzing(let counts) = self { counts } else { nil }
    }
}

/// How far an index run's reading of files is, against its totals.
public struct IndexCounts: Sendable, Hashable {
    public var filesDone: Int
    public var filesTotal: Int
    public var bytesDone: Int64
    public var bytesTotal: Int64
}

/// Why an index run stopped. A bad file never stops a run; these do.
public enum IndexError: Error, Hashable, Sendable {
    case library(LibraryWalkError)
    case catalog(CatalogError)
}

extension IndexError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .library(let error): error.description
        case .catalog(let error): error.description
        }
    }
}
