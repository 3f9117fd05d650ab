import DaemonClient
import Foundation
import PhotoCore
import SystemKit

/// The backend's way to the daemon of a mount, over its channel (`ChannelCall`): ask for a
/// pick on an app's behalf (making the app, location removed, when photofs does not know
/// it), wait for the answer, cancel. Every call blocks; none runs on the bus loop.
struct DaemonPicks: Sendable {
    /// The environment (where the daemon's socket is).
    let environment: [String: String]

    /// A request the daemon recorded.
    struct Submitted: Sendable {
        let id: Int
        /// Whether the app was made for this request (it did not exist).
        let createdApp: Bool
    }

    /// Why a request could not be made or waited for.
    enum Failure: Error, Sendable, CustomStringConvertible {
        /// No daemon answers for that mount (not mounted by this user, or an older photofs).
        case unreachable(String)
        /// The daemon refused the call: its errno and reason.
        case refused(Errno, String)
        /// The daemon answered something this backend does not understand.
        case unexpected(String)

        var description: String {
            switch self {
            case .unreachable(let why): "the photofs daemon cannot be reached: \(why)"
            case .refused(_, let reason): "the photofs daemon refused: \(reason)"
            case .unexpected(let what): "unexpected answer from the photofs daemon: \(what)"
            }
        }
    }

    func submit(app: String, request: PickRequest, title: String, mountpoint: String) throws(Failure) -> Submitted {
        let reply = try call(.ask(app: app, text: request.description, title: title.isEmpty ? nil : title, create: true), mountpoint)
        guard let id = reply.request else { throw .unexpected("no request number") }
        return Submitted(id: id, createdApp: reply.created ?? false)
    }

    /// Blocks until the request is settled; what the answer was.
    func wait(app: String, id: Int, mountpoint: String) throws(Failure) -> PickAnswer {
        while true {
            // The daemon waits at most a minute per call; ask again while it is pending.
            let reply = try call(.wait(app: app, request: id, seconds: 60), mountpoint)
            switch reply.answer?.status {
            case "selected": return .selected((reply.answer?.names ?? []).map { Array($0) })
            case "cancelled": return .cancelled
            case "expired": return .expired
            case "pending": continue
            default: throw .unexpected(reply.answer?.status ?? "no answer")
            }
        }
    }

    /// Cancels the request (the dialog was closed); a request already settled stays so.
    func cancel(app: String, id: Int, mountpoint: String) {
        _ = try? call(.cancel(app: app, request: id), mountpoint)
    }

    private func call(_ call: ChannelCall, _ mountpoint: String) throws(Failure) -> ChannelReply {
        switch PickerSocketClient.call(call, mountpoint: Array(mountpoint.utf8), environment: environment) {
        case .replied(let reply) where reply.errno == 0: return reply
        case .replied(let reply): throw .refused(Errno(rawValue: reply.errno), reply.message)
        case .failed(let why): throw .unreachable(why)
        case .unavailable: throw .unreachable("no daemon channel for \(mountpoint)")
        }
    }
}
