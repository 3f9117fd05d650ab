import DaemonClient
import PhotoCore

/// What Add and Cancel of a picker (the page or the terminal) do, through the library's
/// grants (`LibraryGrants`: one `.pick` or `.cancel` call on the daemon's socket when the
/// library is mounted, the catalog otherwise).
public struct PickerActions: Sendable {
    let grants: LibraryGrants

    public init(grants: LibraryGrants) {
        self.grants = grants
    }

    /// Grants `picked` with the other members of each one's group that the picker offers
    /// (the app's filter and the request's media allow them): a Live Photo tile grants its
    /// still and its video, a RAW+JPEG tile both files, never a member left out of the offer.
    /// In this order, in one transaction, answering the request; a sentence for the page on
    /// success, or the refusal's reason.
    public func add(_ picked: [AssetID], setup: PickerSetup) -> Result<String, PickerRefusal> {
        do throws(ChannelError) {
            let ids = setup.withGroupMembers(picked)
            return .success(try grants.pick(ids, app: setup.app.name, request: setup.requestID, replace: setup.mode == .replace))
        } catch {
            return .failure(PickerRefusal(error.message))
        }
    }

    /// Answers the request `cancelled` (grants stay as they are).
    public func cancel(setup: PickerSetup) -> Result<String, PickerRefusal> {
        do throws(ChannelError) {
            return .success(try grants.cancel(app: setup.app.name, request: setup.requestID))
        } catch {
            return .failure(PickerRefusal(error.message))
        }
    }
}
