/// Resolves picker targets written as paths inside the mount (`library/all/IMG_0001~3f9a.jpg`,
/// `apps/editor/x.jpg`, or absolute under the mountpoint) with one view tree.
public struct ViewTreeTargetResolver: TargetResolving {
    public let tree: ViewTree
    /// The mountpoint's absolute path bytes, so absolute targets below it resolve too.
    public let mountpoint: [UInt8]

    public init(tree: ViewTree, mountpoint: [UInt8]) {
        self.tree = tree
        self.mountpoint = mountpoint
    }

    public func resolve(_ target: [UInt8]) -> AssetID? {
        var path = target
        if path.first == UInt8(ascii: "/") {
            let prefix = mountpoint.last == UInt8(ascii: "/") ? mountpoint : mountpoint + [UInt8(ascii: "/")]
            guard path.starts(with: prefix) else { return nil }
            path = Array(path.dropFirst(prefix.count))
        }
        // `..` is refused rather than resolved: a target names a file, not a walk.
        guard !path.split(separator: UInt8(ascii: "/")).contains(where: { $0.elementsEqual([0x2E, 0x2E]) }) else { return nil }
        guard let node = tree.resolve(path) else { return nil }
        return tree.asset(of: node)?.id
    }
}
