import PhotoCore

/// Pick requests that do not come through a request file: asked for on an app's behalf
/// over the daemon channel (the desktop's file dialog), answered and cancelled there. Each
/// is recorded, expires and is posted to the daemon exactly like one an app wrote to its `.request`.
extension PhotoFileSystem {
    /// Records a pick request of `app` as if it had written `text` to its request file.
    public func submitRequest(_ app: String, _ text: [UInt8], title: String? = nil, appIsNew: Bool = false) throws(PickRequestError)
        -> RequestBroker.Pending
    {
        let pending = try layer.recordRequest(app, text, now: RequestFiles.now(), title: title, appIsNew: appIsNew, in: tree)
        requests.scheduleExpiry(of: pending)
        return pending
    }
}
