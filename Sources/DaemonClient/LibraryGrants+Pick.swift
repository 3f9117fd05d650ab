import PhotoCore
import SystemKit

extension LibraryGrants {
    /// Grants `ids` to `app` in this order (after clearing its selection for `replace`)
    /// and answers `request`. Mounted, one `.pick` call on the daemon channel grants and
    /// answers together (or neither happens); not mounted, there is no request to answer
    /// and the grants go straight to the catalog. Returns the sentence for people.
    public func pick(_ ids: [AssetID], app: String, request: Int?, replace: Bool) throws(ChannelError) -> String {
        if mountpoint != nil {
            return try call(.pick(app: app, request: request, assets: ids.map(\.rawValue), replace: replace)).message
        }
        var lines: [String] = []
        if replace { lines.append("clear \(app)") }
        if !ids.isEmpty { lines.append("select \(app) " + ids.map(\.rawValue).joined(separator: " ")) }
        if !lines.isEmpty { try send(Array((lines.joined(separator: "\n") + "\n").utf8)) }
        let count = ids.count == 1 ? "1 photo" : "\(ids.count) photos"
        return replace ? "\(app) now has \(count)." : "Added \(count) to \(app)."
    }

    /// Answers `request` of `app` `cancelled` (grants stay as they are); a request that is
    /// no longer waiting, or a library no longer mounted, needs no cancel.
    public func cancel(app: String, request: Int?) throws(ChannelError) -> String {
        if let request {
            do throws(ChannelError) {
                _ = try call(.cancel(app: app, request: request))
            } catch {
                switch error {
                case .notMounted: break
                case .refused(let code, _) where code == Errno.noSuchFileOrDirectory.rawValue: break
                default: throw error
                }
            }
        }
        return "Cancelled: \(app) gets nothing new."
    }
}
