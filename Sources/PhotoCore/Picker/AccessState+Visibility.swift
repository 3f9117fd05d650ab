import SystemKit

extension AccessState {
    /// What `apps/<name>/` shows, in view order: the app's members (`members(of:in:at:)`:
    /// explicit grants, then rule matches, minus exclusions and expired grants) that
    /// `AppVisibility` shows (catalogued, passing the filter, servable under the location
    /// policy). A grant that is hidden stays in the state (hidden, not deleted). An unknown
    /// app, or one whose stored filter no longer parses, sees nothing (fails closed).
    public func visibleAssets(of name: String, in assets: AssetIndex, at now: Int64 = SystemClock.wallNanoseconds()) -> [Asset] {
        guard let app = apps[name] else { return [] }
        let visibility = AppVisibility(app)
        return members(of: name, in: assets, at: now).compactMap { id in
            assets[id].flatMap { visibility.shows($0) ? $0 : nil }
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
