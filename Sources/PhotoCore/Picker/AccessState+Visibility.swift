extension AccessState {
    /// What `apps/<name>/` shows: the app's members (`members(of:in:at:)`: explicit grants,
    /// then rule matches, minus exclusions and expired grants) whose asset is still
    /// catalogued and passes the app's filter, in that order. A grant that fails the filter stays in
    /// the state (hidden, not deleted). An unknown app, or one whose stored filter no longer
    /// parses, sees nothing (fails closed).
    public func visibleAssets(of name: String, in assets: AssetIndex) -> [Asset] {
        guard let app = apps[name], let filter = try? Filter(app.filter) else { return [] }
        return members(of: name, in: assets, at: WallClock.nanoseconds()).compactMap { id in
            assets[id].flatMap { filter.matches($0) ? $0 : nil }
        }
    }
}

extension PickerExecutor {
    /// Parses one write to `.picker` and applies it as one transaction: the entry point
    /// for the FUSE adapter and the CLI alike.
    public static func apply(
        write: [UInt8], to state: AccessState, assets: AssetIndex, resolver: some TargetResolving = NoMountPaths(), now: Int64
    ) throws(PickerError) -> (AccessState, [AccessChange]) {
        try apply(try PickerCommandParser.parse(write), to: state, assets: assets, resolver: resolver, now: now)
    }
}
