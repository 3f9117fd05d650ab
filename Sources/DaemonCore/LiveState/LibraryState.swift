import PhotoCatalog
import PhotoCore
import Synchronization
import SystemKit

/// The live state of one catalogued library, and its one owner: the current snapshot, an
/// index of its assets, the views computed from them, and the one path by which picker
/// writes, library changes and the first load replace them (`install`).
///
/// Both the daemon (writes to `.picker`) and the CLI when nothing is mounted go through
/// `execute(write:)`: one parser, one executor, one place that persists. Writes are
/// serialised by a lock held from reading the state to publishing its views, so two
/// writes never lose each other's grants; the grants are durable before `execute` returns.
/// FUSE threads read the published views under a lock of their own, never waiting for a
/// write or a catalog read.
///
/// Every install that serves views is published once to the state's `ChangeSink`, by the
/// call that made it and before that call returns: a picker write, a library change (the
/// watcher, the startup scan), a grant that ended by itself. No caller forwards a change.
public final class LibraryState: ViewSource {
    /// What views are computed from, with its asset index.
    public struct Current: Sendable {
        public let snapshot: LibrarySnapshot
        public let assets: AssetIndex
        /// Counts the installs that changed the assets: a rendered `.picker` block is valid
        /// for one generation.
        var generation = 0
        /// Counts every install: the rendered `.picker` text is valid for one version.
        var version = 0
    }

    /// One app's rendered `.picker` block and what it was rendered from.
    private struct RenderedBlock {
        let app: App
        let grants: [Grant]
        let generation: Int
        let bytes: [UInt8]
        /// Per grant, its line; nil for an app with rules or exclusions (rendered whole).
        let lines: [RenderedLine]?
    }

    /// One grant's line of a block (with its newline) and what it showed.
    private struct RenderedLine {
        let bytes: [UInt8]
        let visible: Bool
        let expired: Bool
    }

    /// What one applied picker write did.
    public struct Outcome: Sendable {
        /// The state afterwards.
        public let current: Current
        /// The grants and apps that changed.
        public let changes: [AccessChange]
        /// What the kernel must forget (empty when nothing is served), already published.
        public let forget: ViewTreeChanges
        /// Whether the state changed (a write may apply and change nothing).
        let changed: Bool
    }

    /// Why a picker write did not apply.
    public enum WriteError: Error, Sendable {
        /// The write was refused: nothing changed.
        case refused(PickerError)
        /// The catalog failed to persist it: nothing changed.
        case catalog(CatalogError)
    }

    public let catalog: Catalog
    /// The redaction plans the read path serves, read from the catalog file on demand.
    public let plans: StoredPlans
    /// How app filters are evaluated for the views; nil when no views are served (the CLI).
    private let filters: (any AppFilterResolving)?
    /// Where every install is published, once (the daemon's kernel side); nil when nothing
    /// is told (the CLI, tests of the state alone).
    private let sink: (any ChangeSink)?
    let state: Mutex<Current>
    private let published: Mutex<ViewTree>
    /// Each app's rendered `.picker` block: every write to `.picker` is preceded and followed
    /// by reads of its size, and rendering 20 apps of 1,000 grants takes tens of
    /// milliseconds; a write re-renders only the apps it changed.
    private let renderedBlocks = Mutex<[String: RenderedBlock]>([:])
    /// The whole rendered text and the `Current.version` it shows.
    private let renderedText = Mutex<(version: Int, bytes: [UInt8])?>(nil)
    /// The first load's snapshot while it or its views' tables are not kept in files (`saveLoadedSnapshot`).
    private let unsaved = Mutex<(LibrarySnapshot, Catalog.SnapshotFileTicket)?>(nil)
    /// Where the first `load` found its assets and its views' tables.
    private let loadedFromFile = Mutex((snapshot: false, viewTables: false))

    /// Loads the catalog's current snapshot, serving no views (the CLI's commands).
    public init(catalog: Catalog) throws(CatalogError) {
        self.catalog = catalog
        self.plans = StoredPlans(path: catalog.path)
        self.filters = nil
        self.sink = nil
        let snapshot = try catalog.snapshot()
        state = Mutex(Current(snapshot: snapshot, assets: AssetIndex(snapshot.assets, identifiers: Self.identifiers(of: catalog))))
        published = Mutex(ViewTree.build(snapshot: LibrarySnapshot(), filters: FilterLanguageResolver()))
    }

    /// An empty state that serves views with `filters` once `load` has read the catalog:
    /// the daemon makes it before its library watcher, which must exist before the catalog
    /// is read (it watches folders while the library is walked). Every change is published
    /// to `sink`, once, before the call that made it returns.
    public init(serving catalog: Catalog, filters: some AppFilterResolving, sink: (any ChangeSink)? = nil) {
        self.catalog = catalog
        self.plans = StoredPlans(path: catalog.path)
        self.filters = filters
        self.sink = sink
        let empty = LibrarySnapshot()
        state = Mutex(Current(snapshot: empty, assets: AssetIndex(empty.assets)))
        published = Mutex(ViewTree.build(snapshot: empty, filters: filters))
        plans.prepare()
    }

    /// The snapshot and index in force now.
    public var current: Current { state.withLock { $0 } }

    /// The views requests are answered from now.
    public var views: ViewTree { published.withLock { $0 } }

    /// Reads the whole catalog and shows it; publishes and returns what the kernel must
    /// forget. `read`
    /// gets the snapshot as soon as it is read, before the views are computed (the daemon's
    /// library walk compares with it meanwhile).
    @discardableResult
    public func load(read: (LibrarySnapshot) -> Void = { _ in }) throws(CatalogError) -> ViewTreeChanges {
        var changes = ViewTreeChanges()
        try publish(.library) { () throws(CatalogError) -> ViewTreeChanges? in
            changes = try loadUnpublished(read: read)
            return changes
        }
        return changes
    }

    private func loadUnpublished(read: (LibrarySnapshot) -> Void) throws(CatalogError) -> ViewTreeChanges {
        try state.withLock { (current: inout Current) throws(CatalogError) -> ViewTreeChanges in
            let snapshot: LibrarySnapshot
            var tables: LibraryTables?
            if current.snapshot.assets.isEmpty {
                let ticket: Catalog.SnapshotFileTicket?
                (snapshot, ticket, tables) = try catalog.snapshotForServing()
                unsaved.withLock { $0 = ticket.map { (snapshot, $0) } }
                let fromFile = (ticket?.readFromSnapshotFile ?? true) && !catalog.isReadOnly
                loadedFromFile.withLock { $0 = (fromFile, tables != nil) }
            } else {
                snapshot = try catalog.snapshot(reusing: current.snapshot)
            }
            read(snapshot)
            return install(snapshot, accessOnly: false, tables: tables, into: &current)
        }
    }

    /// Whether the first `load` read the assets from an up-to-date snapshot file.
    public var loadedFromSnapshotFile: Bool { loadedFromFile.withLock { $0.snapshot } }

    /// Whether the first `load` built the views from tables kept beside the snapshot file.
    public var loadedViewTables: Bool { loadedFromFile.withLock { $0.viewTables } }

    /// Keeps the assets of the first `load` and their views' tables for the next mount
    /// (`Catalog.saveSnapshotFile`) when either was not read from an up-to-date file;
    /// false when there was nothing to keep. The daemon calls it once the mount answers;
    /// `stop` abandons it (`SnapshotFileError.stopped`, nothing written).
    @discardableResult
    public func saveLoadedSnapshot(stop: StopSignal? = nil) throws(SnapshotFileError) -> Bool {
        guard
            let (snapshot, ticket) = unsaved.withLock({ taken in
                defer { taken = nil }; return taken
            })
        else { return false }
        try catalog.saveSnapshotFile(snapshot, ticket: ticket, stop: stop)
        return true
    }

    /// Re-reads the catalog after an index run and shows it; publishes and returns what the
    /// kernel must forget. With `changed` (the ids of the index runs' `IndexSummary.changedIDs`), reads
    /// only those rows and patches the views for them instead of building them again.
    @discardableResult
    public func reload(changed: Set<AssetID>? = nil) throws(CatalogError) -> ViewTreeChanges {
        var changes = ViewTreeChanges()
        try publish(.library) { () throws(CatalogError) -> ViewTreeChanges? in
            changes = try reloadUnpublished(changed: changed)
            return changes
        }
        return changes
    }

    private func reloadUnpublished(changed: Set<AssetID>?) throws(CatalogError) -> ViewTreeChanges {
        try state.withLock { (current: inout Current) throws(CatalogError) -> ViewTreeChanges in
            guard let changed else {
                // The first load's snapshot is no longer what is served: keep none.
                unsaved.withLock { $0 = nil }
                return install(try catalog.snapshot(reusing: current.snapshot), accessOnly: false, into: &current)
            }
            let (snapshot, change) = try catalog.update(current.snapshot, changed: changed)
            return install(snapshot, accessOnly: false, patching: change, into: &current)
        }
    }

    /// Applies one write of picker commands as one transaction, persists it, shows it and
    /// publishes it before returning (a write that changed nothing publishes nothing). With `exactIDs`, a `select` of a group member grants that member
    /// only (see `AssetIndex.ignoringGroups`).
    public func execute(write: [UInt8], resolver: some TargetResolving = NoMountPaths(), now: Int64, exactIDs: Bool = false)
        throws(WriteError) -> Outcome
    {
        var outcome: Outcome?
        try publish(.access) { () throws(WriteError) -> ViewTreeChanges? in
            let applied = try executeUnpublished(write: write, resolver: resolver, now: now, exactIDs: exactIDs)
            outcome = applied
            // A write that changed nothing is no change: nothing to publish.
            return applied.changed ? applied.forget : nil
        }
        return outcome!
    }

    private func executeUnpublished(write: [UInt8], resolver: some TargetResolving, now: Int64, exactIDs: Bool) throws(WriteError)
        -> Outcome
    {
        try state.withLock { (current: inout Current) throws(WriteError) -> Outcome in
            let before = AccessState(current.snapshot)
            let after: AccessState
            let changes: [AccessChange]
            do throws(PickerError) {
                let assets = exactIDs ? current.assets.ignoringGroups() : current.assets
                (after, changes) = try PickerExecutor.apply(write: write, to: before, assets: assets, resolver: resolver, now: now)
            } catch {
                throw .refused(error)
            }
            guard !changes.isEmpty || after != before else {
                return Outcome(current: current, changes: changes, forget: ViewTreeChanges(), changed: false)
            }
            do throws(CatalogError) {
                try catalog.replaceAccessState(apps: after.apps, grants: after.grants)
            } catch {
                throw .catalog(error)
            }
            var snapshot = current.snapshot
            snapshot.apps = after.apps
            snapshot.grants = after.grants
            let forget = install(snapshot, accessOnly: true, into: &current)
            return Outcome(current: current, changes: changes, forget: forget, changed: true)
        }
    }

    /// The one install path: makes `snapshot` current and, when views are served, replaces
    /// them (only the changed apps' parts when `accessOnly`: `snapshot` has the same assets
    /// as the current one; patched for `change` when it says how the assets differ) and
    /// returns what the kernel must forget.
    func install(
        _ snapshot: LibrarySnapshot, accessOnly: Bool, patching change: LibraryChange? = nil, tables: LibraryTables? = nil,
        into current: inout Current
    ) -> ViewTreeChanges {
        let index: AssetIndex
        if accessOnly {
            index = current.assets
        } else if let change {
            index = current.assets.patched(to: snapshot.assets, change: change)
        } else {
            index = AssetIndex(snapshot.assets, identifiers: groupIdentifiers)
        }
        current = Current(
            snapshot: snapshot, assets: index, generation: accessOnly ? current.generation : current.generation + 1,
            version: current.version + 1)
        guard let filters else { return ViewTreeChanges() }
        let old = views
        let new: ViewTree
        let changes: ViewTreeChanges
        if let change, let patched = old.patching(change, to: snapshot, filters: filters) {
            (new, changes) = patched
        } else if accessOnly {
            (new, changes) = old.applyingAccess(apps: snapshot.apps, grants: snapshot.grants, filters: filters)
        } else {
            new = ViewTree.build(snapshot: snapshot, previous: old, filters: filters, tables: tables)
            changes = old.changes(to: new)
            // The picker finds ids in the views' own table: the first write to `.picker`
            // after a mount does not build one (about a second at a million assets).
            current = Current(
                snapshot: snapshot, assets: AssetIndex(sharingIDsOf: new, identifiers: groupIdentifiers), generation: current.generation,
                version: current.version)
        }
        published.withLock { $0 = new }
        // Times move after the tree is published: a kernel that saw a directory's new time
        // then reads its listing from this tree, and a listing it cached under the old time
        // is dropped once the time moves. The other order would let it cache the replaced
        // tree's listing under the new time, where it stays (an empty one even past the
        // invalidation, which finds no page to drop).
        new.recordListingChanges(changes, at: Self.now())
        return changes
    }

    /// Runs `change` and publishes what it returns to the sink, when there is one, inside
    /// the sink's bracket (`ChangeSink.begin`, `end`); a state without views has nothing to
    /// publish.
    func publish<Failure: Error>(_ kind: StateChange.Kind, _ change: () throws(Failure) -> ViewTreeChanges?) throws(Failure) {
        guard let sink, filters != nil else {
            _ = try change()
            return
        }
        sink.begin(kind)
        var forget: ViewTreeChanges?
        defer { sink.end(kind, forgetting: forget) }
        forget = try change()
    }

    /// The content identifiers an index reads when a picker write first asks for groups.
    private var groupIdentifiers: @Sendable () -> [AssetID: String] { Self.identifiers(of: catalog) }

    /// Reads the catalog's content identifiers; none when it cannot be read (a Live Photo
    /// then takes no partner along: less is granted, never more).
    private static func identifiers(of catalog: Catalog) -> @Sendable () -> [AssetID: String] {
        { (try? catalog.contentIdentifiers()) ?? [:] }
    }

    private static func now() -> Int64 {
        SystemClock.wallNanoseconds()
    }

    /// The text a fresh read of `.picker` shows: every app and its selection.
    public func render() -> String { String(decoding: renderedBytes(), as: UTF8.self) }

    /// `render()` as bytes, kept until the next install: the size of `.picker` is asked for
    /// around every write.
    public func renderedBytes() -> [UInt8] {
        let current = self.current
        if let cached = renderedText.withLock({ $0 }), cached.version == current.version { return cached.bytes }
        let bytes = render(current)
        renderedText.withLock { cached in
            if (cached?.version ?? -1) < current.version { cached = (current.version, bytes) }
        }
        return bytes
    }

    /// The same text as `PickerRenderer.render` as bytes, with unchanged apps' blocks kept
    /// from the last render (copied, not re-encoded: 20 apps of 1,000 grants are 1.2 MB).
    private func render(_ current: Current) -> [UInt8] {
        let apps = current.snapshot.apps
        var blocks: [[UInt8]] = [Array(PickerRenderer.header(appCount: apps.count).utf8)]
        var fresh: [String: RenderedBlock] = [:]
        let cached = renderedBlocks.withLock { $0 }
        let now = SystemClock.wallNanoseconds()
        for name in apps.keys.sorted() {
            guard let app = apps[name] else { continue }
            let grants = current.snapshot.grants[name] ?? []
            if let block = cached[name], block.generation == current.generation, block.app == app, block.grants == grants {
                blocks.append(block.bytes)
                fresh[name] = block
            } else {
                let block = Self.renderBlock(app, grants: grants, current: current, now: now, reusing: cached[name])
                blocks.append(block.bytes)
                fresh[name] = block
            }
        }
        renderedBlocks.withLock { $0 = fresh }
        var out: [UInt8] = []
        out.reserveCapacity(blocks.reduce(0) { $0 + $1.count })
        for block in blocks { out.append(contentsOf: block) }
        return out
    }

    /// One app's block. For an app without rules or exclusions, the lines of grants that
    /// `previous` (its last block) rendered over the same assets and app settings are kept
    /// and only the other grants' lines are made: a select re-renders one line, not 1,000.
    private static func renderBlock(
        _ app: App, grants: [Grant], current: Current, now: Int64, reusing previous: RenderedBlock?
    ) -> RenderedBlock {
        guard app.rules.isEmpty, app.exclusions.isEmpty else {
            let bytes = Array(PickerRenderer.block(app, grants: grants, assets: current.assets, now: now).utf8)
            return RenderedBlock(app: app, grants: grants, generation: current.generation, bytes: bytes, lines: nil)
        }
        var old: (grants: [Grant], lines: [RenderedLine])?
        if let previous, previous.generation == current.generation, previous.app == app, let lines = previous.lines {
            old = (previous.grants, lines)
        }
        let visibility = AppVisibility(app)
        var lines: [RenderedLine] = []
        lines.reserveCapacity(grants.count)
        func reusable(_ line: RenderedLine, _ was: Grant, _ grant: Grant) -> Bool {
            was == grant && line.expired == grant.terms.hasExpired(at: now)
        }
        // A select appends: the unchanged start is taken as it is, the rest found by asset.
        var prefix = 0
        if let old {
            while prefix < grants.count, prefix < old.grants.count, reusable(old.lines[prefix], old.grants[prefix], grants[prefix]) {
                lines.append(old.lines[prefix])
                prefix += 1
            }
        }
        var oldPositions: [AssetID: Int] = [:]
        if let old, prefix < old.grants.count {
            for position in prefix..<old.grants.count { oldPositions[old.grants[position].asset] = position }
        }
        for grant in grants[prefix...] {
            if let old, let position = oldPositions[grant.asset], reusable(old.lines[position], old.grants[position], grant) {
                lines.append(old.lines[position])
                continue
            }
            let line = PickerRenderer.grantLine(grant, of: app, visibility: visibility, assets: current.assets, now: now)
            lines.append(
                RenderedLine(bytes: Array((line.text + "\n").utf8), visible: line.visible, expired: grant.terms.hasExpired(at: now)))
        }
        let opening = Array(PickerRenderer.opening(app, selected: grants.count, visible: lines.count { $0.visible }).utf8)
        let closing = Array(PickerRenderer.closing(app).utf8)
        var bytes = opening
        bytes.reserveCapacity(opening.count + lines.reduce(0) { $0 + $1.bytes.count } + closing.count)
        for line in lines { bytes.append(contentsOf: line.bytes) }
        bytes.append(contentsOf: closing)
        return RenderedBlock(app: app, grants: grants, generation: current.generation, bytes: bytes, lines: lines)
    }
}
