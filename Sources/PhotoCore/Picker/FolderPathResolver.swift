/// Resolves the mount paths that need no view tree: `library/folders/<library path>`,
/// optionally under the absolute mountpoint (`/mnt/photos/library/folders/...`). Other
/// mount paths (`library/all/...`, `by-date`, `apps/...`) go to `next`, which the view
/// tree provides.
public struct FolderPathResolver<Next: TargetResolving>: TargetResolving {
    /// The absolute mountpoint as bytes, without a trailing slash; nil when unknown.
    public var mountpoint: [UInt8]?
    public var assets: AssetIndex
    public var next: Next

    public init(mountpoint: [UInt8]?, assets: AssetIndex, next: Next) {
        self.mountpoint = mountpoint
        self.assets = assets
        self.next = next
    }

    public func resolve(_ target: [UInt8]) -> AssetID? {
        var path = target[...]
        if let mountpoint, !mountpoint.isEmpty, path.starts(with: mountpoint + [UInt8(ascii: "/")]) {
            path = path.dropFirst(mountpoint.count + 1)
        }
        let prefix = Array("library/folders/".utf8)
        if path.starts(with: prefix) {
            let relative = Array(path.dropFirst(prefix.count))
            // `..` or `.` components are never part of a catalogued path: refuse rather than normalise.
            let components = relative.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            if components.contains(where: { $0.isEmpty || $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }) { return nil }
            return assets.asset(at: LibraryPath(bytes: relative))?.id
        }
        return next.resolve(target)
    }
}

extension FolderPathResolver where Next == NoMountPaths {
    public init(mountpoint: [UInt8]?, assets: AssetIndex) {
        self.init(mountpoint: mountpoint, assets: assets, next: NoMountPaths())
    }
}
