import Foundation

/// What the pages post, read by Foundation's `JSONDecoder`: a body that is not valid JSON
/// of the expected shape (a member missing or of another type) is refused as a whole.
enum PostedBody {
    /// The picker's confirm and add: the chosen ids, and for add the confirmation that the
    /// person saw the question.
    struct Chosen: Decodable, Equatable {
        var ids: [String]
        var confirmation: String?
    }

    /// The report's revoke: one app and the ids to take back from it.
    struct Revoke: Decodable, Equatable {
        var app: String
        var ids: [String]
    }

    /// `body` decoded as `T`, or nil when it is not that.
    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) -> T? {
        try? JSONDecoder().decode(type, from: Data(body))
    }
}
