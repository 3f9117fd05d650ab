import Dispatch
import Synchronization

/// What building the library views computes from every asset before it makes a single
/// directory: which asset stands for each id (`FirstByID`, with the table by id that the
/// picker shares), each asset's day and camera (`LibraryColumns`) and folder
/// (`FolderGroups`). At a million assets these passes are most of a mount (about half a
/// second on two cores), and they depend on the assets alone: the daemon keeps them beside
/// the snapshot file (`bytes`, `init?(bytes:assetCount:)`) and a mount that reads both
/// builds the views from them instead of passing over the assets again.
public struct LibraryTables: Sendable {
    let first: FirstByID
    let columns: LibraryColumns
    let folders: FolderGroups

    /// The tables of `assets`, computed on two cores, or with `onTwoCores` false on the
    /// calling thread alone (work in the background keeps its thread's low priority).
    public init(_ assets: ChunkedArray<Asset>, onTwoCores: Bool = true) {
        guard onTwoCores else {
            self.init(first: FirstByID(assets), columns: LibraryColumns(assets), folders: FolderGroups(assets))
            return
        }
        // The two halves take about as long: the id table, and the folder and column passes.
        let results = Mutex<(first: FirstByID?, columns: LibraryColumns?, folders: FolderGroups?)>((nil, nil, nil))
        DispatchQueue.concurrentPerform(iterations: 2) { task in
            if task == 0 {
                let first = FirstByID(assets)
                results.withLock { $0.first = first }
            } else {
                let folders = FolderGroups(assets)
                let columns = LibraryColumns(assets)
                results.withLock { state in
                    state.folders = folders
                    state.columns = columns
                }
            }
        }
        let (first, columns, folders) = results.withLock { ($0.first!, $0.columns!, $0.folders!) }
        self.init(first: first, columns: columns, folders: folders)
    }

    init(first: FirstByID, columns: LibraryColumns, folders: FolderGroups) {
        self.first = first
        self.columns = columns
        self.folders = folders
    }

    /// The number of assets the tables are of.
    public var assetCount: Int { columns.days.count }
}
