import CatalogTestSupport
import PhotoCatalog
import PhotoCore
import Synchronization
import SystemKit
import Testing

@testable import DaemonCore

/// A sink that records what it is given, one entry per publication, and whether each
/// change ran inside its bracket (`begin` to `end`, which a library change needs).
final class RecordingSink: ChangeSink {
    struct Publication: Equatable {
        let change: StateChange
        /// The state's version at `begin` and at `end`.
        let versions: (before: Int, after: Int)

        static func == (a: Publication, b: Publication) -> Bool {
            a.change == b.change && a.versions == b.versions
        }
    }

    private let recorded = Mutex<[Publication]>([])
    /// The version at the open bracket's `begin` (the state makes one change at a time).
    private let begun = Mutex<Int?>(nil)
    /// The version of the state the sink serves (set once the state is made).
    let version = Mutex<(@Sendable () -> Int)?>(nil)

    func begin(_ kind: StateChange.Kind) {
        let before = version.withLock { $0 }?() ?? -1
        begun.withLock { $0 = before }
    }

    func end(_ kind: StateChange.Kind, forgetting forget: ViewTreeChanges?) {
        let before = begun.withLock { begun in
            defer { begun = nil }
            return begun ?? -2
        }
        guard let forget else { return }
        let after = version.withLock { $0 }?() ?? -1
        recorded.withLock { $0.append(Publication(change: StateChange(kind: kind, forget: forget), versions: (before, after))) }
    }

    /// What was published since the last call, and forgets it.
    func take() -> [Publication] {
        recorded.withLock { recorded in
            defer { recorded = [] }
            return recorded
        }
    }
}

/// Every path that changes the live state publishes to its one sink, exactly once, from
/// inside the sink's `publish` (over a real catalog in a temporary folder).
@Suite("one change sink")
struct ChangeSinkTests {
    static let second: Int64 = 1_000_000_000

    /// A library of two folders, loaded into a state that publishes to a fresh recording sink.
    static func served(_ photos: [String: String]) throws -> (TestLibrary, LibraryState, RecordingSink) {
        let library = try TestLibrary(photos: photos)
        let sink = RecordingSink()
        let state = LibraryState(serving: library.catalog, filters: FilterLanguageResolver(), sink: sink)
        sink.version.withLock { $0 = { [state] in state.version } }
        try state.load()
        return (library, state, sink)
    }

    static func id(_ state: LibraryState, _ name: String) throws -> String {
        try #require(state.current.snapshot.assets.first { $0.path.fileName == Array(name.utf8) }).id.rawValue
    }

    static func appFiles(_ state: LibraryState, _ app: String) -> [String] {
        guard let directory = state.views.resolve(Array("apps/\(app)".utf8)) else { return [] }
        return state.views.children(of: directory.inode).map { String(decoding: $0.name, as: UTF8.self) }.sorted()
    }

    @Test func theFirstLoadIsOneLibraryChange() throws {
        let (_, state, sink) = try Self.served(["a/one.jpg": "1"])
        let published = sink.take()
        #expect(published.count == 1)
        #expect(published.first?.change.kind == .library)
        #expect(published.first?.change.releasesFreedMemory == true)
        #expect(published.first?.versions.after == state.version)
    }

    @Test func aSelectPublishesOnceWithTheAppsFiles() throws {
        let (_, state, sink) = try Self.served(["a/one.jpg": "1", "b/two.jpg": "2"])
        _ = sink.take()
        let control = PickerControl(state: state, mountpoint: [], log: .discarding)
        _ = control.execute(Array("app add v --location keep\n".utf8), caller: 0)
        let appDirectory = try #require(state.views.resolve(Array("apps/v".utf8))).inode
        #expect(sink.take().count == 1)

        guard case .success(let changes) = control.execute(Array("select v \(try Self.id(state, "one.jpg"))\n".utf8), caller: 0) else {
            Issue.record("the select was refused")
            return
        }
        let published = sink.take()
        #expect(published.count == 1)
        let change = try #require(published.first).change
        #expect(change.kind == .access)
        #expect(change.forget == changes)
        // The app's folder lists a new file: the kernel must drop its listing.
        #expect(change.forget.invalidatedInodes.contains(appDirectory))
        #expect(change.preparesRepresentations)
        #expect(!change.releasesFreedMemory)
        #expect(Self.appFiles(state, "v") == ["one.jpg"])
    }

    @Test func aWriteThatChangesNothingOrIsRefusedPublishesNothing() throws {
        let (_, state, sink) = try Self.served(["a/one.jpg": "1"])
        let control = PickerControl(state: state, mountpoint: [], log: .discarding)
        let one = try Self.id(state, "one.jpg")
        _ = control.execute(Array("app add v --location keep\nselect v \(one)\n".utf8), caller: 0)
        _ = sink.take()
        // Selecting what is selected already changes nothing.
        guard case .success = control.execute(Array("select v \(one)\n".utf8), caller: 0) else {
            Issue.record("the repeated select was refused")
            return
        }
        #expect(sink.take().isEmpty)
        guard case .failure = control.execute(Array("select nobody \(one)\n".utf8), caller: 0) else {
            Issue.record("a select for an unknown app was applied")
            return
        }
        #expect(sink.take().isEmpty)
    }

    @Test func aLibraryChangePublishesOnceFromInsideTheSink() throws {
        let (library, state, sink) = try Self.served(["a/one.jpg": "1"])
        let versionBefore = state.version
        _ = sink.take()
        try library.writePhoto("a/two.jpg", comment: "2")
        let handler = state.indexRunHandler(log: .discarding)
        try handler(try library.indexer.run())
        let published = sink.take()
        #expect(published.count == 1)
        let publication = try #require(published.first)
        #expect(publication.change.kind == .library)
        #expect(publication.change.preparesRepresentations)
        #expect(publication.change.releasesFreedMemory)
        // The change ran inside `publish`: the sink saw the old state first.
        #expect(publication.versions == (versionBefore, versionBefore + 1))
        // The library's listings show a new file: the kernel must drop them.
        #expect(!publication.change.forget.invalidatedInodes.isEmpty)
        #expect(state.current.snapshot.assets.count == 2)
    }

    @Test func aGrantThatExpiresPublishesOnce() throws {
        let (_, state, sink) = try Self.served(["a/one.jpg": "1", "a/two.jpg": "2"])
        let now = SystemClock.wallNanoseconds()
        _ = try state.execute(
            write: Array("app add e --location keep\nselect e \(try Self.id(state, "one.jpg")) --for 1s\n".utf8), now: now)
        #expect(Self.appFiles(state, "e") == ["one.jpg"])
        _ = sink.take()
        #expect(try state.endFinishedGrants(now: now + 2 * Self.second, isRunning: { _ in true }) != nil)
        let published = sink.take()
        #expect(published.count == 1)
        #expect(published.first?.change.kind == .access)
        #expect(published.first?.change.forget.isEmpty == false)
        #expect(Self.appFiles(state, "e") == [])
        // Nothing left to end: nothing published.
        #expect(try state.endFinishedGrants(now: now + 3 * Self.second, isRunning: { _ in true }) == nil)
        #expect(sink.take().isEmpty)
    }

    @Test func theTimerEndsAGoneRunAndPublishesOnce() throws {
        let (_, state, sink) = try Self.served(["a/one.jpg": "1"])
        // A one-time run whose process cannot exist (above any pid_max, of another boot).
        let gone = RunOwner(pid: 2_000_000_000, startTicks: 1, bootID: "0123-abcd")
        _ = try state.execute(
            write: Array("app add r --location keep\nonce begin r \(gone)\nselect r \(try Self.id(state, "one.jpg"))\n".utf8),
            now: SystemClock.wallNanoseconds())
        #expect(Self.appFiles(state, "r") == ["one.jpg"])
        _ = sink.take()
        let timer = GrantEndingTimer(state: state, log: .discarding)
        timer.tick()
        #expect(sink.take().count == 1)
        #expect(Self.appFiles(state, "r") == [])
        timer.tick()
        #expect(sink.take().isEmpty)
    }

    @Test func aStateWithoutViewsPublishesNothing() throws {
        let library = try TestLibrary(photos: ["a/one.jpg": "1"])
        let state = try LibraryState(catalog: library.catalog)
        _ = try state.execute(write: Array("app add v\n".utf8), now: 1)
        #expect(state.current.snapshot.apps["v"] != nil)
    }
}
