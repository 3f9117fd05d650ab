import PhotoCore

/// What an Add will do, in the person's words, shown before anything is granted: how many
/// photos, to which app, what the app receives of them, and what it loses ("Remove all 5
/// photos from editor?" when a replacing Add holds nothing).
public struct GrantSummary: Sendable {
    public var question: String
    public var details: [String]
    /// The confirming button's label.
    public var button: String
    /// Whether the grant takes photos away from the app (asked even in the terminal).
    public var removes: Bool

    public init(setup: PickerSetup, ids: [AssetID]) {
        let app = setup.app.name
        let kept = Set(ids)
        let removed = setup.mode == .replace ? setup.preselected.filter { !kept.contains($0) }.count : 0
        removes = removed > 0
        if setup.mode == .replace, ids.isEmpty {
            switch removed {
            case 0: question = "Leave \(app) with no photos?"
            case 1: question = "Remove 1 photo from \(app)?"
            default: question = "Remove all \(removed) photos from \(app)?"
            }
            button = removed == 0 ? "Confirm" : removed == 1 ? "Remove it" : "Remove all"
            details = ["\(app) will no longer see any photo of the library."]
            return
        }
        question = setup.mode == .add ? "Add \(Self.photos(ids.count)) to \(app)?" : "Give \(app) \(Self.photos(ids.count))?"
        button = setup.mode == .add ? "Add \(Self.photos(ids.count))" : "Give \(Self.photos(ids.count))"
        var details = ["\(app) receives them with \(setup.receives)."]
        let files = setup.withGroupMembers(ids).count
        if files > ids.count { details.append("Live Photos and RAW+JPEG pairs come with every part: \(files) files in all.") }
        if setup.ordered, ids.count > 1 { details.append("In the order you picked them.") }
        if removed > 0 { details.append("\(app) will no longer see \(Self.photos(removed)) it has now.") }
        if setup.mode == .add, !setup.preselected.isEmpty {
            details.append("It keeps the \(Self.photos(setup.preselected.count)) it already has.")
        }
        self.details = details
    }

    public static func photos(_ count: Int) -> String { count == 1 ? "1 photo" : "\(count) photos" }
}
