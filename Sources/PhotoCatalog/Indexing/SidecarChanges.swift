import PhotoCore

/// The photos an index run reads again because an XMP sidecar beside them appeared,
/// changed or went: a sidecar's position counts for its photo's `has:location`, but the
/// photo's own file did not change, so its stat alone would keep it unread.
enum SidecarChanges {
    static let suffix = Array(".xmp".utf8)

    /// The walked files whose catalogued row is unchanged (so not read otherwise) and
    /// whose sidecar is among `changedSidecars`: `d/IMG.jpg.xmp` names `d/IMG.jpg`,
    /// `d/IMG.xmp` every `d/IMG.*` (see `XMPSidecar.candidates`).
    static func photos(
        for changedSidecars: [LibraryPath], walk: [WalkedFile], stored: [LibraryPath: StoredFileState]
    ) -> [WalkedFile] {
        var named: Set<[UInt8]> = []
        for sidecar in changedSidecars {
            let bytes = sidecar.bytes
            guard bytes.count > suffix.count, bytes.suffix(suffix.count).elementsEqual(suffix) else { continue }
            named.insert(Array(bytes.dropLast(suffix.count)))
        }
        guard !named.isEmpty else { return [] }
        return walk.filter { file in
            guard let row = stored[file.path], row.stat == file.stat else { return false }
            return named.contains(file.path.bytes) || AssetGroups.stemKey(file.path).map(named.contains) == true
        }
    }

    /// The sidecars among `paths`.
    static func sidecars(_ paths: some Sequence<LibraryPath>) -> [LibraryPath] {
        paths.filter { path in path.withBytes { $0.count > suffix.count && $0.suffix(suffix.count).elementsEqual(suffix) } }
    }
}
