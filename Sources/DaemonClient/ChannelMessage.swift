import Foundation
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

    public init(
        id: Int, app: String, limit: Int?, mode: String, ordered: Bool, media: String?, title: String?, waited: Int, expiresIn: Int,
        newApp: Bool? = nil
    ) {
        self.id = id
        self.app = app
        self.limit = limit
        self.mode = mode
        self.ordered = ordered
        self.media = media
        self.title = title
        self.waited = waited
        self.expiresIn = expiresIn
        self.newApp = newApp
    }
}

/// How a request ended, as the channel tells it.
public struct ChannelAnswer: Codable, Sendable, Equatable {
    /// `selected`, `cancelled`, `expired` or `pending` (still waiting after `wait`).
    public var status: String
    /// For `selected`: the names in the app's view, in pick order (bytes, which need not be UTF-8).
    public var names: [Data]

    public init(status: String, names: [Data]) {
        self.status = status
        self.names = names
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

    public init(
        errno: Int32 = 0, message: String = "", requests: [ChannelRequest]? = nil, request: Int? = nil, created: Bool? = nil,
        answer: ChannelAnswer? = nil
    ) {
        self.errno = errno
        self.message = message
        self.requests = requests
        self.request = request
        self.created = created
        self.answer = answer
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
