import CatalogTestSupport
import PhotoCatalog
import PhotoCore
import SystemKit
import Testing

@testable import DaemonCore

/// The work after ready gives way to the daemon's exit: asked to stop, it abandons what is
/// left (here the snapshot file the next mount would read) and says so; left alone, it
/// writes that file.
@Suite("work after ready")
struct AfterReadyWorkTests {
    private static func loadedState() throws -> (LibraryState, TestLibrary) {
        let library = try TestLibrary(photos: ["a/one.jpg": "1", "a/two.jpg": "2", "b/three.jpg": "3"])
        let state = LibraryState(serving: library.catalog, filters: FilterLanguageResolver())
        // Read from the table: the snapshot file is what the work would write.
        try state.load()
        #expect(!state.loadedFromSnapshotFile)
        return (state, library)
    }

    @Test func workAskedToStopIsAbandonedAndWritesNoFile() throws {
        let (state, library) = try Self.loadedState()
        let work = AfterReadyWork()
        // Asked before it began its first step: nothing of it runs.
        #expect(work.stop(waitingAtMost: 0) == nil, "not started: no outcome")
        work.start(state: state, log: DaemonLog { _, _, _ in })
        #expect(work.wait() == .stopped)
        #expect(!FileSystem.exists(library.catalog.snapshotFilePath))
        #expect(!FileSystem.exists(library.catalog.viewTablesFilePath))
        #expect(!state.current.assets.isPreparedByPath, "the path table was not built either")
        // What it abandoned was still to do: saving now writes the file.
        #expect(try state.saveLoadedSnapshot())
        #expect(FileSystem.exists(library.catalog.snapshotFilePath))
    }

    @Test func workLeftAloneFinishesAndWritesTheFile() throws {
        let (state, library) = try Self.loadedState()
        let work = AfterReadyWork()
        work.start(state: state, log: DaemonLog { _, _, _ in })
        #expect(work.wait() == .finished)
        #expect(FileSystem.exists(library.catalog.snapshotFilePath))
        #expect(state.current.assets.isPreparedByPath)
        #expect(work.stop(waitingAtMost: 0) == .finished, "a stop after the end changes nothing")
    }
}
