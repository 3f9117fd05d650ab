import Foundation
import PhotoCore
import SystemKit

/// One call on the daemon channel (the picker socket): what the CLI, the pages and the
/// portal ask of the daemon of a mount. Each connection carries one call as JSON and gets
/// one `ChannelReply`; only the mounting user and root are served.
///
/// Grants and requests go through the same door: a pick is one call that grants and
/// answers together (`pick`), so no client writes the mount's display text (`.picker`'s
/// rendering, `.requests`) to change anything.
public enum ChannelCall: Codable, Sendable, Equatable {
    /// Runs one write of the picker language as one transaction (as a write to `.picker`).
    case picker(text: Data)
    /// Lists the pending pick requests.
    case requests
    /// Grants `assets` to `app` in this order (after clearing its selection for `replace`)
    /// and, with `request`, answers that request with their names, in one step: either both
    /// land or neither does.
    case pick(app: String, request: Int?, assets: [String], replace: Bool)
    /// Answers `request` of `app` `cancelled`; no grant changes.
    case cancel(app: String, request: Int)
    /// Asks the person, on behalf of `app`, as if the app had written `text` to its request
    /// file; with `create`, an app photofs does not know is made first with the safe
    /// defaults (location removed). `title` is shown to the person.
    case ask(app: String, text: String, title: String?, create: Bool)
    /// Waits up to `seconds` (at most 60) for `request` of `app` to be settled.
    case wait(app: String, request: Int, seconds: Double)
}

/// A pending request as the channel lists it.
public struct ChannelRequest: Codable, Sendable, Equatable {
    public var id: Int
    public var app: String
    /// The narrowed limit; nil when unlimited.
    public var limit: Int?
    public var mode: String
    public var ordered: Bool
    /// The media selector in the request language (`any(image,video)`); nil for everything.
    public var media: String?
    public var title: String?
    public var waited: Int
    public var expiresIn: Int
    /// Whether the app was made for this request (nil from a daemon that does not say).
    public var newApp: Bool? = nil

    /// The listing of `pending`, its times counted from `now` (monotonic seconds, the
    /// broker's clock).
    public init(_ pending: RequestBroker.Pending, now: Double) {
        let request = pending.scope.request
        id = pending.id
        app = pending.app
        limit = pending.scope.limit
        mode = request.mode.rawValue
        ordered = request.ordered
        media = request.media?.description
        title = pending.title
        waited = Int(now - pending.submitted)
        expiresIn = max(0, Int(pending.deadline - now))
        newApp = pending.appIsNew
    }
}

/// How a request ended, as the channel tells it.
public struct ChannelAnswer: Codable, Sendable, Equatable {
    /// `selected`, `cancelled`, `expired` or `pending` (still waiting after `wait`).
    public var status: String
    /// For `selected`: the names in the app's view, in pick order (bytes, which need not be UTF-8).
    public var names: [Data]
}

extension ChannelAnswer {
    /// Still waiting (after `wait`).
    public static let pending = ChannelAnswer(status: "pending", names: [])

    /// How `answer` is told on the channel (a refusal reads as cancelled).
    public init(_ answer: PickAnswer) {
        switch answer {
        case .selected(let names): self.init(status: "selected", names: names.map { Data($0) })
        case .cancelled, .refused: self.init(status: "cancelled", names: [])
        case .expired: self.init(status: "expired", names: [])
        }
    }
}

/// The daemon's one reply to a `ChannelCall`.
public struct ChannelReply: Codable, Sendable, Equatable {
    /// 0 on success; otherwise the errno the refusal maps to.
    public var errno: Int32 = 0
    /// One line for people: why it was refused, or what was done.
    public var message: String = ""
    /// For `requests`.
    public var requests: [ChannelRequest]?
    /// For `ask`: the request's number.
    public var request: Int?
    /// For `ask`: whether the app was made for it.
    public var created: Bool?
    /// For `wait` (and `pick`, `cancel`): how the request stands.
    public var answer: ChannelAnswer?

    /// Done; `message` says what was done, for people.
    public static func done(_ message: String = "") -> ChannelReply {
        ChannelReply(message: message)
    }

    /// The pending requests, for `requests`.
    public static func listing(_ requests: [ChannelRequest]) -> ChannelReply {
        ChannelReply(requests: requests)
    }

    /// For `ask`: the request's number, and whether its app was made for it.
    public static func asked(request: Int, created: Bool) -> ChannelReply {
        ChannelReply(request: request, created: created)
    }

    /// How a request stands (for `wait`, `pick` and `cancel`), with what was done.
    public static func answered(_ answer: ChannelAnswer, message: String = "") -> ChannelReply {
        ChannelReply(message: message, answer: answer)
    }

    /// A refusal with its reason on one line.
    public static func refusal(_ code: Int32, _ message: String) -> ChannelReply {
        ChannelReply(errno: code, message: message.split(whereSeparator: \.isNewline).joined(separator: " "))
    }

    /// A refusal with `code` and its reason on one line.
    public static func refusal(_ code: Errno, _ message: String) -> ChannelReply { refusal(code.rawValue, message) }
}

/// JSON in and out, one value per connection.
public enum ChannelCoding {
    /// The most bytes one call may carry (a picker write of many ids).
    public static let maximumCall = 64 << 20

    public static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? Array(encoder.encode(value))) ?? Array(#"{"errno":5,"message":"cannot encode the reply"}"#.utf8)
    }

    public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) -> Value? {
        try? JSONDecoder().decode(type, from: Data(bytes))
    }
}
