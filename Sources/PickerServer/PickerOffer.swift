import PhotoCore

/// What a picker offers an app: what the app could be served if picked. The one visibility
/// rule of the views, `.picker` and `photofs app show` (`AppVisibility`: the app's filter
/// and whether its location and metadata policies can serve the file) and the request's
/// media. A file the app's view would withhold (one whose location cannot be removed with
/// certainty, say, for an app that strips it) is never offered, so it can never make an Add fail.
public enum PickerOffer {
    /// `media=live` asks for the members of Live Photos (`groups`): the still and the video.
    public static func candidates(_ assets: some Sequence<Asset>, app: App, media: MediaSelector?, groups: AssetGroups = .none) -> [Asset] {
        let visibility = AppVisibility(app)
        return assets.filter { asset in
            guard visibility.shows(asset) else { return false }
            guard let media else { return true }
            return media.matches(asset, isLivePhoto: groups.group(of: asset.id)?.kind == .live)
        }
    }
}
