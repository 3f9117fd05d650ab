import MediaFormats
import SystemKit

extension ViewTree {
    /// Computes the tree for `snapshot`.
    ///
    /// - `previous`: the tree being replaced, so that names stay the same for assets that
    ///   stay in a directory (see `ViewNaming`). Inode numbers do not depend on it.
    /// - `filters`: decides which granted assets pass each app's filter.
    ///
    /// Layout: `.picker`, `library/{all, by-date/YYYY/MM/DD, by-camera/<camera>, folders/...}`
    /// and `apps/<app>`. Assets whose id appears twice in the snapshot are shown once
    /// (the first by path). In an app view an asset is shown when it is granted, passes
    /// the filter, exists, and (unless the policy is `keep`) has a redaction plan that
    /// does not withhold it.
    ///
    /// - `tables`: the snapshot's `LibraryTables` when they are at hand (kept from an earlier
    ///   mount of the same assets in the same order); computed here otherwise.
    public static func build(
        snapshot: LibrarySnapshot, previous: ViewTree? = nil, filters: some AppFilterResolving, tables: LibraryTables? = nil
    ) -> ViewTree {
        var library = LibraryPartBuilder(snapshot: snapshot, previous: previous)
        let fitting = tables.flatMap { $0.assetCount == snapshot.assets.count ? $0 : nil }
        library.build(tables: fitting ?? LibraryTables(snapshot.assets))
        return assemble(
            snapshot: snapshot, library: library.part.finish(), files: library.finishFiles(), firstByID: library.firstByID, reusing: [:],
            previous: previous, filters: filters)
    }

    /// A tree over `snapshot` with `library` as its library part: app parts in `reusing` are
    /// kept (they must have been built over the same assets with the same app and grants),
    /// every other app's part is built.
    static func assemble(
        snapshot: LibrarySnapshot, library: ViewPart, files: LibraryFiles, firstByID: AssetPositions, reusing: [String: ViewPart],
        previous: ViewTree?,
        filters: any AppFilterResolving
    ) -> ViewTree {
        var parts: [String: ViewPart] = reusing
        var appsByUID: [UInt32: Set<String>] = [:]
        // Built only if a rule app needs its capture-date order.
        let index = AssetIndex(snapshot.assets)
        let now = SystemClock.wallNanoseconds()
        for name in snapshot.apps.keys.sorted() where parts[name] == nil {
            guard let app = snapshot.apps[name] else { continue }
            // Inodes are hashes of (view path, asset id): unique in practice, but a clash
            // with any other part must still move this one's number.
            let others = [library] + Array(parts.values)
            let taken = { (inode: UInt64) -> Bool in
                let hash = NodeTable.hash(inode: inode)
                for part in others where part.position(of: inode, hash: hash) != nil { return true }
                return false
            }
            parts[name] = buildApp(
                app, grants: snapshot.grants[name] ?? [], assets: snapshot.assets, firstByID: firstByID, filters: filters,
                previous: previous, taken: taken, index: index, now: now)
        }
        for (name, app) in snapshot.apps where parts[name] != nil {
            if let uid = app.uid { appsByUID[uid, default: []].insert(name) }
        }
        let apps = parts.keys.sorted().map { AppPart(name: $0, part: parts[$0]!) }
        return ViewTree(
            snapshot: snapshot, library: library, files: files, firstByID: firstByID, apps: apps, appsByUID: appsByUID,
            directoryTimes: previous?.directoryTimes ?? DirectoryTimes())
    }

    /// This tree with other apps and grants over the same assets: only the parts of apps
    /// whose settings or grants differ are built again (O(their grants)); the library part
    /// and every other app's part are shared.
    public func replacingAccess(apps: [String: App], grants: [String: [Grant]], filters: some AppFilterResolving) -> ViewTree {
        var snapshot = self.snapshot
        snapshot.apps = apps
        snapshot.grants = grants
        var reusing: [String: ViewPart] = [:]
        for entry in self.apps {
            guard let app = apps[entry.name], app == self.snapshot.apps[entry.name],
                grants[entry.name] ?? [] == self.snapshot.grants[entry.name] ?? []
            else { continue }
            reusing[entry.name] = entry.part
        }
        return Self.assemble(
            snapshot: snapshot, library: library, files: files, firstByID: firstByID, reusing: reusing, previous: self, filters: filters)
    }

    /// The directory name used for assets with neither make nor model.
    public static let unknownCamera = "Unknown camera"

    /// The `by-camera` directory name of an asset: "Make Model", or the model alone when it
    /// already starts with the make (`Canon` + `Canon EOS 40D` → `Canon EOS 40D`).
    public static func cameraName(make: String?, model: String?) -> String {
        let make = trimmed(make ?? "")
        let model = trimmed(model ?? "")
        switch (make.isEmpty, model.isEmpty) {
        case (true, true): return unknownCamera
        case (false, true): return make
        case (true, false): return model
        case (false, false):
            return model.lowercased().hasPrefix(make.lowercased()) ? model : make + " " + model
        }
    }

    private static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\0" || $0 == "\t" || $0 == "\n" }
        var view = Substring(text)
        while let first = view.first, isSpace(first) { view = view.dropFirst() }
        while let last = view.last, isSpace(last) { view = view.dropLast() }
        return String(view)
    }
}

/// Builds the library part of a tree: the root, `.picker`, `library/...` and the `apps/`
/// directory (whose children are the app parts) as nodes, and the library views' files as
/// `LibraryFiles`; also decides which asset stands for each id (the first by path), which
/// app parts use.
///
/// Files are not named here: each directory holding files is named on first use
/// (`LibraryDirectory`), unless the same directory of the tree being replaced was named,
/// whose names are then kept. So a mount groups a million assets into their directories in
/// a few passes over small columns and sorts nothing but the directories.
struct LibraryPartBuilder {
    let snapshot: LibrarySnapshot
    /// The tree being replaced, for the names of files that stay.
    let previous: ViewTree?
    /// The directories.
    var part: ViewPartBuilder
    /// Per id, the position of the asset shown for it.
    var firstByID = AssetPositions(capacity: 0)
    /// The directories holding files, as they are made.
    private var directories: [LibraryDirectory?] = []
    /// Per view but `all`, per asset position, the directory index showing it.
    private var directoryOf: [ChunkedArray<Int32>] = []
    private var allIndex: Int32 = -1

    init(snapshot: LibrarySnapshot, previous: ViewTree?) {
        self.snapshot = snapshot
        self.previous = previous
        // Directories only: a few per hundred assets.
        part = ViewPartBuilder(capacity: snapshot.assets.count / 64 + 64)
    }

    /// The files made by `build`.
    func finishFiles() -> LibraryFiles { LibraryFiles(directories: directories, directoryOf: directoryOf, allIndex: allIndex) }

    mutating func build(tables: LibraryTables) {
        let assets = snapshot.assets
        let (first, columns, folderGroups) = (tables.first, tables.columns, tables.folders)
        firstByID = first.positions
        let shown = first.shown
        directoryOf = (0..<3).map { _ in ChunkedArray(repeating: -1, count: assets.count) }

        let root = part.add(inode: ViewInode.root, parent: nil, name: [], kind: .directory, scope: .shared, path: [])
        _ = part.add(inode: ViewInode.picker, parent: root, name: Array(".picker".utf8), kind: .picker, scope: .owner, path: nil)
        let library = part.add(
            inode: ViewInode.library, parent: root, name: Array("library".utf8), kind: .directory, scope: .owner,
            path: Array("library".utf8))
        _ = part.add(
            inode: ViewInode.apps, parent: root, name: Array("apps".utf8), kind: .directory, scope: .shared, path: Array("apps".utf8))
        let all = part.add(
            inode: ViewInode.all, parent: library, name: Array("all".utf8), kind: .directory, scope: .owner, path: Array("library/all".utf8)
        )
        let dates = part.add(
            inode: ViewInode.byDate, parent: library, name: Array("by-date".utf8), kind: .directory, scope: .owner,
            path: Array("library/by-date".utf8))
        let cameras = part.add(
            inode: ViewInode.byCamera, parent: library, name: Array("by-camera".utf8), kind: .directory, scope: .owner,
            path: Array("library/by-camera".utf8))
        let folders = part.add(
            inode: ViewInode.folders, parent: library, name: Array("folders".utf8), kind: .directory, scope: .owner,
            path: Array("library/folders".utf8))

        allIndex = addFiles(shown, to: all, view: .all)
        buildByDate(shown, days: columns.days, under: dates)
        buildByCamera(shown, columns: columns, under: cameras)
        buildFolders(folderGroups, hidden: first.hidden, under: folders)
    }

    /// Makes `members` (asset positions, in any order) the files of `directory` in `view` and
    /// returns the index of their `LibraryDirectory`: named now when the tree being replaced
    /// showed names in the same directory (so that files keep them), else on first use.
    @discardableResult
    private mutating func addFiles(_ members: [Int32], to directory: Int32, view: LibraryView) -> Int32 {
        let inode = part.records[Int(directory)].inode
        let reserved = part.records[Int(directory)].children.map { part.name(at: $0) }
        let made: LibraryDirectory
        if let previous, let before = previous.files.directory(inode: inode), before.isNamed {
            let (assets, previousFiles, previousAssets, previousFirst) = (
                snapshot.assets, previous.files, previous.snapshot.assets, previous.firstByID
            )
            let named = LibraryNaming.name(members, view: view, reserved: reserved, assets: assets) { position in
                let id = assets[Int(position)].id
                return previousFiles.name(
                    ofFile: ViewInode.libraryFile(view: view, asset: id), in: inode, asset: id, assets: previousAssets,
                    firstByID: previousFirst)
            }
            made = LibraryDirectory(inode: inode, view: view, named: named)
        } else {
            made = LibraryDirectory(inode: inode, view: view, pending: members, reserved: reserved)
        }
        let index = Int32(directories.count)
        directories.append(made)
        if view != .all {
            for position in members { directoryOf[Int(view.rawValue) - 1][Int(position)] = index }
        }
        return index
    }

    // MARK: - Views

    private mutating func buildByDate(_ shown: [Int32], days: [Int64], under dates: Int32) {
        var groups: [Int64: [Int32]] = [:]
        for index in shown { groups[days[Int(index)], default: []].append(index) }
        var years: [Int64: Int32] = [:]
        var months: [Int64: Int32] = [:]
        for key in groups.keys.sorted() {
            let (year, month, day) = (key / 10_000, key / 100 % 100, key % 100)
            let yearNode = years[year] ?? part.directory(named: Self.digits(year, 4), in: dates, scope: .owner)
            years[year] = yearNode
            let monthNode = months[key / 100] ?? part.directory(named: Self.digits(month, 2), in: yearNode, scope: .owner)
            months[key / 100] = monthNode
            let dayNode = part.directory(named: Self.digits(day, 2), in: monthNode, scope: .owner)
            addFiles(groups[key] ?? [], to: dayNode, view: .byDate)
        }
    }

    private mutating func buildByCamera(_ shown: [Int32], columns: LibraryColumns, under cameras: Int32) {
        var groups = [[Int32]](repeating: [], count: columns.cameraNames.count)
        for index in shown { groups[Int(columns.cameras[Int(index)])].append(index) }
        for group in groups.indices.sorted(by: { ViewNaming.precedes(columns.cameraNames[$0], columns.cameraNames[$1]) })
        where !groups[group].isEmpty {
            let directory = part.directory(named: columns.cameraNames[group], in: cameras, scope: .owner)
            addFiles(groups[group], to: directory, view: .byCamera)
        }
    }

    /// Makes the `folders` directories of `groups` (every asset's folder), leaving out the
    /// assets in `hidden` (another asset stands for their id).
    private mutating func buildFolders(_ groups: FolderGroups, hidden: Set<Int32>, under folders: Int32) {
        let assets = snapshot.assets
        let (representatives, grouped, starts) = (groups.representatives, groups.members, groups.starts)
        // By sanitized folder path (what decides the directory); folders made in path order.
        var directories: [NameKey: Int32] = [NameKey([]): folders]
        var files: [Int32: [Int32]] = [:]
        let byPath = representatives.indices.sorted { a, b in
            LibraryNaming.precedes(representatives[a], representatives[b], view: .folders, in: assets)
        }
        for group in byPath {
            let all = grouped[starts[group]..<starts[group + 1]]
            let members = hidden.isEmpty ? Array(all) : all.filter { !hidden.contains($0) }
            // A folder holding only assets shown from elsewhere is not made.
            if members.isEmpty { continue }
            let components = assets[Int(representatives[group])].path.components.map(ViewNaming.sanitized)
            var folderPath: [UInt8] = []
            var directory = folders
            for component in components.dropLast() {
                folderPath += folderPath.isEmpty ? component : [UInt8(ascii: "/")] + component
                if let existing = directories[NameKey(folderPath)] {
                    directory = existing
                } else {
                    directory = part.directory(named: component, in: directory, scope: .owner)
                    directories[NameKey(folderPath)] = directory
                }
            }
            files[directory, default: []] += members
        }
        for directory in directories.values.sorted() {
            let sorted = Self.sortedByName(part.records[Int(directory)].children, in: part)
            part.records[Int(directory)].children = sorted
            if let members = files[directory], !members.isEmpty { addFiles(members, to: directory, view: .folders) }
        }
    }

    /// `children` (positions in `part`) in name order.
    static func sortedByName(_ children: [Int32], in part: ViewPartBuilder) -> [Int32] {
        let spans = children.map { ($0, part.records[Int($0)].name) }
        return spans.sorted { part.names.precedes($0.1, $1.1) }.map(\.0)
    }

    /// `value` in decimal, zero-padded to `width` digits (the by-date directory names).
    static func digits(_ value: Int64, _ width: Int) -> [UInt8] {
        let text = String(value)
        return Array((String(repeating: "0", count: max(0, width - text.count)) + text).utf8)
    }
}

extension ViewTree {
    /// The part of one app: its directory under `apps/` and its members
    /// (`AccessState.members`) that `AppVisibility` shows (granted, catalogued, passing the filter, servable under the
    /// location policy), in selection order. Nil when the name cannot be a directory name.
    /// O(the app's grants); O(the library) for an app with rule grants.
    static func buildApp(
        _ app: App, grants: [Grant], assets: ChunkedArray<Asset>, firstByID: AssetPositions, filters: any AppFilterResolving,
        previous: ViewTree?, taken: @escaping (UInt64) -> Bool, index: AssetIndex, now: Int64
    ) -> ViewPart? {
        let directoryName = Array(app.name.utf8)
        guard ViewNaming.sanitized(directoryName) == directoryName else { return nil }
        let scope = ViewScope.app(app.name)
        var part = ViewPartBuilder(capacity: grants.count + 1, taken: taken)
        let path = Array("apps/".utf8) + directoryName
        let directory = part.add(
            inode: ViewInode.directory(path: path), parent: nil, parentInode: ViewInode.apps, name: directoryName, kind: .directory,
            scope: scope, path: path)
        let visibility = AppVisibility(app, filters: filters)
        var members: [Int32] = []
        for id in AccessState(apps: [app.name: app], grants: [app.name: grants]).members(of: app.name, in: index, at: now) {
            guard let index = firstByID.position(of: id, in: assets) else { continue }
            if visibility.shows(assets[Int(index)]) { members.append(index) }
        }
        let previousPart = previous?.appPart(named: app.name)
        let previousAssets = previous?.snapshot.assets ?? []
        part.addFiles(
            members, of: assets, to: directory, policy: app.locationPolicy, metadata: app.metadataPolicy, scope: scope,
            representation: app.representation,
            quality: app.quality
        ) { inode, parent, id in
            previousPart.flatMap { ViewTree.previousName(ofFile: inode, in: parent, asset: id, part: $0, assets: previousAssets) }
        }
        return part.finish()
    }
}

/// The camera fields that decide a `by-camera` directory name.
struct CameraKey: Hashable {
    var make: String?
    var model: String?
}
