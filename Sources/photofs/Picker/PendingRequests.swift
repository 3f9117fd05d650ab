import DaemonClient
import PhotoCore

/// A pending pick request of a mounted library, as its daemon lists it on the channel.
struct PendingRequest: Sendable {
    var id: Int
    var app: String
    /// The narrowed limit; nil when unlimited.
    var limit: Int?
    var mode: PickRequest.Mode
    var ordered: Bool
    var media: MediaSelector?
    /// What the asking app said the pick is for (a dialog's title).
    var title: String?
    var waited: Int
    var expiresIn: Int
    /// Whether the app was made for this request (asked on its behalf by the desktop portal).
    var newApp: Bool

    init?(_ listed: ChannelRequest) {
        guard let mode = PickRequest.Mode(rawValue: listed.mode) else { return nil }
        id = listed.id
        app = listed.app
        limit = listed.limit
        self.mode = mode
        ordered = listed.ordered
        media = listed.media.flatMap { try? PickRequestParser.parse("media=" + $0).media }
        title = listed.title
        waited = listed.waited
        expiresIn = listed.expiresIn
        newApp = listed.newApp ?? false
    }

    /// The pending requests of the mount at `mountpoint`; throws when its daemon cannot be asked.
    static func list(mountpoint: String, environment: [String: String]) throws(CLIError) -> [PendingRequest] {
        let reply = try PickerClient.call(.requests, mountpoint: mountpoint, environment: environment)
        return (reply.requests ?? []).compactMap(PendingRequest.init)
    }
}
