import Glibc
import PhotoCore
import PickerServer

/// What Add and Cancel of a picker do: one `.picker` transaction (through the mount when
/// mounted, else straight to the catalog), then the answer to the app's request.
struct PickActions: PickerActions {
    let client: PickerClient
    /// The mount whose `.requests` gets the answer (nil: no request to answer).
    let mountpoint: String?

    func add(_ ids: [AssetID], setup: PickerSetup) -> Result<String, PickerRefusal> {
        let app = setup.app.name
        var lines: [String] = []
        if setup.mode == .replace { lines.append("clear \(app)") }
        if !ids.isEmpty { lines.append("select \(app) " + ids.map(\.rawValue).joined(separator: " ")) }
        if !lines.isEmpty {
            do throws(CLIError) {
                try client.send(Array((lines.joined(separator: "\n") + "\n").utf8))
            } catch {
                return .failure(PickerRefusal(error.message))
            }
        }
        if let request = setup.requestID, let mountpoint {
            if let code = PendingRequest.answer(
                "answer \(app) \(request) " + ids.map(\.rawValue).joined(separator: " "), mountpoint: mountpoint)
            {
                return .failure(PickerRefusal("granted, but the request could not be answered: \(String(cString: strerror(code)))"))
            }
        }
        let count = ids.count == 1 ? "1 photo" : "\(ids.count) photos"
        return .success(setup.mode == .add ? "Added \(count) to \(app)." : "\(app) now has \(count).")
    }

    func cancel(setup: PickerSetup) -> Result<String, PickerRefusal> {
        if let request = setup.requestID, let mountpoint {
            if let code = PendingRequest.answer("cancel \(setup.app.name) \(request)", mountpoint: mountpoint), code != ENOENT {
                return .failure(PickerRefusal("the request could not be cancelled: \(String(cString: strerror(code)))"))
            }
        }
        return .success("Cancelled: \(setup.app.name) gets nothing new.")
    }
}
