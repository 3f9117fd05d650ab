import DaemonClient
import DaemonCore
import Foundation
import FuseKit
import PhotoCore
import SystemKit

/// What the daemon does for each call on its channel (`ChannelCall`): picker writes, the
/// list of pending requests, a pick that grants and answers in one step, a cancel, a
/// request asked for on an app's behalf, and waiting for an answer. The caller is already
/// known to be the mounting user or root.
struct DaemonChannel: Sendable {
    let control: PickerControl
    let fileSystem: PhotoFileSystem
    let log: Logger

    private var broker: RequestBroker { fileSystem.layer.requests }

    func answer(_ call: ChannelCall, caller: UInt32) -> ChannelReply {
        switch call {
        case .picker(let text): run(Array(text), caller: caller)
        case .requests: .listing(pendingRequests())
        case .pick(let app, let request, let assets, let replace): pick(app, request: request, assets, replace: replace, caller: caller)
        case .cancel(let app, let request): cancel(app, request: request)
        case .ask(let app, let text, let title, let create): ask(app, text: text, title: title, create: create, caller: caller)
        case .wait(let app, let request, let seconds): wait(app, request: request, seconds: seconds)
        }
    }

    /// One picker write, one transaction; the state published what changed (the kernel
    /// forgot it) before the reply.
    private func run(_ bytes: [UInt8], caller: UInt32, exactIDs: Bool = false) -> ChannelReply {
        switch control.execute(bytes, caller: caller, exactIDs: exactIDs) {
        case .success:
            return .done()
        case .failure(let error, let reason):
            return .refusal(error.errno, reason)
        }
    }

    private func pendingRequests() -> [ChannelRequest] {
        let now = SystemClock.monotonicSeconds()
        return broker.pending().map { ChannelRequest($0, now: now) }
    }

    /// Grants, then answers: the request is claimed first (it can no longer expire or be
    /// cancelled), the grants land in one transaction, and only then is it answered with
    /// the names the app now sees. If the grants fail, the claim is given back and the
    /// request waits as before: never granted without an answer, nor answered without grants.
    private func pick(_ app: String, request: Int?, _ assets: [String], replace: Bool, caller: UInt32) -> ChannelReply {
        var ids: [AssetID] = []
        for text in assets {
            guard let id = AssetID(text) else { return .refusal(.invalidArgument, "'\(text)' is not an asset id") }
            ids.append(id)
        }
        var claimed: RequestBroker.Pending?
        if let request {
            do throws(RequestBrokerError) {
                claimed = try broker.claim(app, id: request)
            } catch {
                return .refusal(
                    .noSuchFileOrDirectory, "request \(request) of app \(app) is no longer waiting (answered, cancelled or expired)")
            }
        }
        var lines: [String] = []
        if replace { lines.append("clear \(app)") }
        if !ids.isEmpty { lines.append("select \(app) " + ids.map(\.rawValue).joined(separator: " ")) }
        if !lines.isEmpty {
            // The picker sent each group member it may grant (by the app's filter and the
            // request's media): no member is added here.
            let outcome = run(Array((lines.joined(separator: "\n") + "\n").utf8), caller: caller, exactIDs: true)
            if outcome.errno != 0 {
                if let request { broker.release(request) }
                return outcome
            }
        }
        let count = ids.count == 1 ? "1 photo" : "\(ids.count) photos"
        let message = replace ? "\(app) now has \(count)." : "Added \(count) to \(app)."
        guard let claimed else { return .done(message) }
        let names = fileSystem.layer.shownNames(of: ids, app: app, in: fileSystem.tree)
        let answer = PickAnswer.selected(names)
        do throws(RequestBrokerError) {
            _ = try broker.settle(app, id: claimed.id, with: answer, claimed: true)
        } catch {
            // A claimed request is settled only here: this cannot happen.
            return .refusal(.ioError, "granted, but the request vanished while it was claimed: \(error)")
        }
        return .answered(ChannelAnswer(answer), message: message)
    }

    private func cancel(_ app: String, request: Int) -> ChannelReply {
        do throws(RequestBrokerError) {
            _ = try broker.settle(app, id: request, with: .cancelled)
            return .answered(ChannelAnswer(.cancelled), message: "Cancelled: \(app) gets nothing new.")
        } catch {
            switch error {
            case .noPendingRequest: return .refusal(.noSuchFileOrDirectory, "request \(request) of app \(app) is no longer waiting")
            case .beingAnswered: return .refusal(.busy, "request \(request) of app \(app) is being answered right now")
            }
        }
    }

    /// A request on `app`'s behalf; with `create`, an unknown app is made first with the
    /// defaults (location removed, no filter, no limit).
    private func ask(_ app: String, text: String, title: String?, create: Bool, caller: UInt32) -> ChannelReply {
        var created = false
        if fileSystem.tree.snapshot.apps[app] == nil {
            guard create else { return .refusal(.noSuchFileOrDirectory, "there is no app named '\(app)'") }
            let made = run(Array("app add \(app)\n".utf8), caller: caller)
            if made.errno != 0 && made.errno != Errno.fileExists.rawValue { return made }
            created = made.errno == 0
            if created { log.info("app \(app) made for a request asked on its behalf (location removed)") }
        }
        do throws(PickRequestError) {
            let pending = try fileSystem.submitRequest(app, Array(text.utf8), title: title, appIsNew: created)
            return .asked(request: pending.id, created: created)
        } catch {
            return .refusal(ViewLayer.refusal(error).errno, error.description)
        }
    }

    /// Waits for `request` to be settled, up to `seconds` (at most a minute per call).
    private func wait(_ app: String, request: Int, seconds: Double) -> ChannelReply {
        guard broker.waitForAnswer(app, id: request, seconds: min(60, max(0, seconds))) else {
            return .answered(.pending)
        }
        return answered(app, request: request)
    }

    /// How `app`'s request stands now (its last answer, which a later request replaces).
    private func answered(_ app: String, request: Int) -> ChannelReply {
        switch broker.status(of: app) {
        case .answered(let answer): .answered(ChannelAnswer(answer))
        case .pending(let pending) where pending.id == request: .answered(.pending)
        default: .refusal(.noSuchFileOrDirectory, "request \(request) of app \(app) is gone (a later request replaced its answer)")
        }
    }
}
