/// Where the READ path reports that an app's view served an asset's bytes: the one hook
/// of the access log in a request handler.
///
/// An implementation must return at once: it is called on every READ that reaches the
/// daemon (never for pages the kernel serves from its cache), so it may not block, take a
/// lock held across I/O or touch the catalog. It never sees a location, only who read what.
public protocol AccessRecorder: Sendable {
    /// Notes that a READ of `asset` through a node of `scope` was served just now. Only
    /// `.app` scopes are an app's access; the owner's own views are not logged.
    func recordRead(in scope: ViewScope, of asset: AssetID)
}
