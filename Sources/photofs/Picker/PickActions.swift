import PhotoCore
import PickerServer

/// What Add and Cancel of a picker do. Mounted, one call on the daemon channel grants and
/// answers the app's request together (or neither happens); not mounted, there is no
/// request to answer and the grants go straight to the catalog.
struct PickActions: PickerActions {
    let client: PickerClient

    /// Grants `picked` with the other members of each one's group that the picker offers
    /// (the app's filter and the request's media allow them): a Live Photo tile grants its
    /// still and its video, a RAW+JPEG tile both files, never a member left out of the offer.
    func add(_ picked: [AssetID], setup: PickerSetup) -> Result<String, PickerRefusal> {
        let ids = setup.withGroupMembers(picked)
        let app = setup.app.name
        let replace = setup.mode == .replace
        do throws(CLIError) {
            if client.mountpoint != nil {
                let call = ChannelCall.pick(app: app, request: setup.requestID, assets: ids.map(\.rawValue), replace: replace)
                return .success(try client.call(call).message)
            }
            var lines: [String] = []
            if replace { lines.append("clear \(app)") }
            if !ids.isEmpty { lines.append("select \(app) " + ids.map(\.rawValue).joined(separator: " ")) }
            if !lines.isEmpty { try client.send(Array((lines.joined(separator: "\n") + "\n").utf8)) }
        } catch {
            return .failure(PickerRefusal(error.message))
        }
        let count = ids.count == 1 ? "1 photo" : "\(ids.count) photos"
        return .success(replace ? "\(app) now has \(count)." : "Added \(count) to \(app).")
    }

    func cancel(setup: PickerSetup) -> Result<String, PickerRefusal> {
        if let request = setup.requestID {
            do throws(CLIError) {
                _ = try client.call(.cancel(app: setup.app.name, request: request))
            } catch {
                // A request that is no longer waiting needs no cancel.
                if error.exitCode != .notFound { return .failure(PickerRefusal(error.message)) }
            }
        }
        return .success("Cancelled: \(setup.app.name) gets nothing new.")
    }
}
