import MediaFormats

/// Files that are one photo though each is an asset of its own: a Live Photo (a still and
/// its video with the same Apple content identifier, in the same folder) or a RAW+JPEG
/// pair (a raw or DNG file and a JPEG in the same folder with the same name but for the
/// extension). The picker shows a group as one tile and a grant of one member may take the
/// others along (see `PickerExecutor`); every member stays an asset of its own, with its
/// own id, filter verdict and redaction.
public struct AssetGroup: Hashable, Sendable {
    /// What kind of group this is.
    public enum Kind: String, Hashable, Sendable {
        case live
        case rawJPEG = "raw+jpeg"
    }

    public var kind: Kind
    /// The members: the one a tile shows first (the still of a Live Photo, the JPEG of a
    /// pair), then the others, each part in path order.
    public var members: [AssetID]

    /// The member a tile shows.
    public var primary: AssetID { members[0] }

    /// The badge on the group's tile and in `.picker`, `show` and `app show`.
    public var badge: String {
        switch kind {
        case .live: "LIVE"
        case .rawJPEG: "RAW+JPEG"
        }
    }

    /// How the group is named to people and screen readers.
    public var description: String {
        switch kind {
        case .live: "Live Photo (still and video)"
        case .rawJPEG: "RAW+JPEG pair"
        }
    }
}

/// The groups of a set of assets, derived from their paths, formats and content
/// identifiers: nothing about a group is stored, so a group is right whenever its members'
/// rows are. A file belongs to at most one group; a Live Photo wins over a RAW+JPEG pair.
public struct AssetGroups: Sendable {
    /// Every group, in the order of its primary member's path.
    public let groups: [AssetGroup]
    private let index: [AssetID: Int]

    /// No groups.
    public static let none = AssetGroups(groups: [])

    private init(groups: [AssetGroup]) {
        self.groups = groups
        var index: [AssetID: Int] = [:]
        for (at, group) in groups.enumerated() {
            for member in group.members { index[member] = at }
        }
        self.index = index
    }

    /// The groups of `assets`, given each asset's Apple content identifier (assets without
    /// one are absent from `identifiers`). Linear in the assets; a library without raw files
    /// or identifiers hashes nothing.
    public init(_ assets: some Collection<Asset>, identifiers: [AssetID: String]) {
        var found: [(path: LibraryPath, group: AssetGroup)] = []
        var taken: Set<AssetID> = []

        // Live Photos: stills and videos of one folder with one identifier.
        if !identifiers.isEmpty {
            var buckets: [LiveKey: [Asset]] = [:]
            for index in assets.indices {
                guard let identifier = identifiers[assets[index].id] else { continue }
                let asset = assets[index]
                buckets[LiveKey(folder: asset.path.folder, identifier: identifier), default: []].append(asset)
            }
            for (_, members) in buckets {
                let stills = members.filter { $0.metadata.format.kind == .image }.sorted { $0.path < $1.path }
                let videos = members.filter { $0.metadata.format.kind == .video }.sorted { $0.path < $1.path }
                guard !stills.isEmpty, !videos.isEmpty else { continue }
                let ids = (stills + videos).map(\.id)
                found.append((stills[0].path, AssetGroup(kind: .live, members: ids)))
                taken.formUnion(ids)
            }
        }

        // RAW+JPEG: the raw files' names without extension, then the JPEGs that match one.
        // Each asset's format is read where it lies (by index, not a copy of the asset per
        // step): a library of a million JPEGs and no raw file costs one pass over a byte each.
        var raws: [[UInt8]: [Asset]] = [:]
        for index in assets.indices where Self.isRaw(assets[index].metadata.format) {
            let asset = assets[index]
            guard !taken.contains(asset.id), let key = Self.stemKey(asset.path) else { continue }
            raws[key, default: []].append(asset)
        }
        if !raws.isEmpty {
            var jpegs: [[UInt8]: [Asset]] = [:]
            for index in assets.indices where assets[index].metadata.format == .jpeg {
                let asset = assets[index]
                guard !taken.contains(asset.id), let key = Self.stemKey(asset.path), raws[key] != nil else { continue }
                jpegs[key, default: []].append(asset)
            }
            for (key, stills) in jpegs {
                let sortedStills = stills.sorted { $0.path < $1.path }
                let rawFiles = (raws[key] ?? []).sorted { $0.path < $1.path }
                found.append((sortedStills[0].path, AssetGroup(kind: .rawJPEG, members: (sortedStills + rawFiles).map(\.id))))
            }
        }
        self.init(groups: found.sorted { $0.path < $1.path }.map(\.group))
    }

    /// The group the asset belongs to, if any.
    public func group(of id: AssetID) -> AssetGroup? {
        index[id].map { groups[$0] }
    }

    /// The other members of the asset's group (empty when it has none).
    public func partners(of id: AssetID) -> [AssetID] {
        group(of: id)?.members.filter { $0 != id } ?? []
    }

    public var isEmpty: Bool { groups.isEmpty }

    /// Whether any of `assets` is a raw image (or a DNG), read in place chunk by chunk: without
    /// one and without content identifiers there is no group, which a pass over a byte an
    /// asset tells (a few milliseconds at a million assets, against far more for a pass
    /// that copies each asset out of a generic collection).
    static func holdsRaw(_ assets: ChunkedArray<Asset>) -> Bool {
        var found = false
        assets.forEachChunk { chunk in
            guard !found else { return }
            for index in chunk.indices where isRaw(chunk[index].metadata.format) {
                found = true
                return
            }
        }
        return found
    }

    /// The groups of `assets` given their identifiers, `.none` at once when there can be
    /// none (no identifier, no raw file).
    static func of(_ assets: ChunkedArray<Asset>, identifiers: [AssetID: String]) -> AssetGroups {
        guard !identifiers.isEmpty || holdsRaw(assets) else { return .none }
        return AssetGroups(assets, identifiers: identifiers)
    }

    /// Whether a format is a camera's raw image (or a DNG): the RAW half of a pair.
    static func isRaw(_ format: MediaFormat) -> Bool { format == .raw || format == .dng }

    /// The path without its file name's last extension (folder and stem together); nil for
    /// a name with no extension.
    public static func stemKey(_ path: LibraryPath) -> [UInt8]? {
        path.withBytes { bytes in
            guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return nil }
            let slash = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
            guard dot > slash else { return nil }
            return Array(bytes[..<dot])
        }
    }

    /// A Live Photo's pairing key.
    private struct LiveKey: Hashable {
        var folder: LibraryPath
        var identifier: String
    }
}
