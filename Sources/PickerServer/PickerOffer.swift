import PhotoCore

/// What a picker offers an app: what the app could be served if picked. The one visibility
/// rule of the views, `.picker` and `photofs app show` (`AppVisibility`: the app's filter
/// and whether its location and metadata policies can serve the file) and the request's
/// media. A file the app's view would withhold (one whose location cannot be removed with
/// certainty, say, for an app that strips it) is never offered, so it can never make an Add fail.
/// They come newest first (equal dates in the catalog's order), ready for the grid.
public enum PickerOffer {
    /// `media=live` asks for the members of Live Photos (`groups`): the still and the video.
    public static func candidates(_ assets: ChunkedArray<Asset>, app: App, media: MediaSelector?, groups: AssetGroups = .none) -> [Asset] {
        let visibility = AppVisibility(app)
        func wanted(_ asset: Asset) -> Bool {
            guard let media else { return true }
            return media.matches(asset, isLivePhoto: groups.group(of: asset.id)?.kind == .live)
        }
        // Positions and keys are filtered and sorted, and each offered asset is copied once
        // (assets are read in place, not through a generic collection): at 100,000 assets
        // copying whole assets was most of the picker's start.
        var offered: [Int] = []
        var keys: [Int64] = []
        for index in 0..<assets.count where visibility.shows(assets[index]) && wanted(assets[index]) {
            offered.append(index)
            keys.append(assets[index].effectiveDate.sortKey)
        }
        let order = offered.indices.sorted { keys[$0] != keys[$1] ? keys[$0] > keys[$1] : $0 < $1 }
        return order.map { assets[offered[$0]] }
    }

    public static func candidates(_ assets: [Asset], app: App, media: MediaSelector?, groups: AssetGroups = .none) -> [Asset] {
        candidates(ChunkedArray(assets), app: app, media: media, groups: groups)
    }
}
