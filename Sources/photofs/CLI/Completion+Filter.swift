/// Completion of filter-language words (`ls type:<Tab>`): the keys, and the values of the
/// keys whose values are a fixed set. The same list serves bash (carried in its script)
/// and zsh and fish (through `photofs completion candidates`).
extension Completion {
    /// Every key of the filter language, with its colon.
    static let filterKeys = [
        "type:", "taken:", "make:", "model:", "lens:", "camera:", "has:", "orientation:", "width:", "height:", "megapixels:", "ext:",
        "mime:", "size:", "folder:", "name:",
    ]

    /// The keys whose values are a fixed set, each `key:value`.
    static let filterValues =
        [
            "type:image", "type:video", "type:live", "type:screenshot", "type:panorama", "has:location", "has:exif", "has:date",
        ] + (1...8).map { "orientation:\($0)" }

    /// The filter words that complete `current` (a leading `-` negates and is kept).
    static func filterCandidates(_ current: String) -> [String] {
        let negated = current.hasPrefix("-")
        let word = negated ? String(current.dropFirst()) : current
        let pool = word.contains(":") ? filterValues : filterKeys + ["OR", "AND", "NOT"]
        return pool.filter { $0.hasPrefix(word) }.map { (negated ? "-" : "") + $0 }
    }
}
