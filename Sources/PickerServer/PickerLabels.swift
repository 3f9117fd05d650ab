import MediaFormats
import PhotoCore

/// What a tile says about its photo, for the eye and for a screen reader: the date in
/// words, the camera or else the file name, the kind, a video's length.
enum PickerLabels {
    static let monthWords = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    /// `2023-06-14`.
    static func day(_ date: CaptureDate) -> String {
        padded(date.year, 4) + "-" + padded(date.month, 2) + "-" + padded(date.day, 2)
    }

    /// `14 June 2023`.
    static func spokenDay(_ date: CaptureDate) -> String {
        let month = (1...12).contains(date.month) ? monthWords[date.month - 1] : "month \(date.month)"
        return "\(date.day) \(month) \(date.year)"
    }

    /// The file's name without its folder.
    static func name(_ asset: Asset) -> String {
        let path = asset.path.display
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The file's folder in the library ("" at the top).
    static func folder(_ asset: Asset) -> String {
        let path = asset.path.display
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// `0:42`, `1:02:05`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? "\(hours):\(padded(minutes, 2)):\(padded(rest, 2))" : "\(minutes):\(padded(rest, 2))"
    }

    /// The camera as a person says it: the model alone when it already names the make
    /// ("Canon EOS 40D", not "Canon Canon EOS 40D").
    static func camera(_ asset: Asset) -> String {
        let make = asset.metadata.make ?? ""
        let model = asset.metadata.model ?? ""
        if model.isEmpty { return make }
        if make.isEmpty || model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first.map(String.init) ?? make.lowercased())
        {
            return model
        }
        return make + " " + model
    }

    /// One tile's facts as a JSON object (never a coordinate); a tile standing for a group
    /// also has its badge and what the group is, in words.
    static func json(_ asset: Asset, seconds: Double?, group: AssetGroup? = nil) -> String {
        let video = asset.metadata.format.kind == .video
        let length = seconds.map { JSONText.string(duration($0)) } ?? "null"
        let badge = group.map { JSONText.string($0.badge) } ?? "null"
        let words = group.map { JSONText.string($0.description) } ?? "null"
        return
            #"{"id":"\#(asset.id.rawValue)","name":\#(JSONText.string(name(asset))),"date":\#(JSONText.string(spokenDay(asset.effectiveDate))),"camera":\#(JSONText.string(camera(asset))),"kind":"\#(video ? "video" : "photo")","format":\#(JSONText.string(asset.metadata.format.rawValue.uppercased())),"duration":\#(length),"badge":\#(badge),"group":\#(words)}"#
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
