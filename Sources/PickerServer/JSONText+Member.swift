extension JSONText {
    /// The value of a flat JSON object's string member `key` (`{"app":"editor"}`), for the
    /// small bodies the pages post; nil when it is missing or needs escapes (app names and
    /// ids never do).
    static func stringMember(_ key: String, in body: [UInt8]) -> String? {
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        let characters = Array(text)
        let needle = Array("\"\(key)\"")
        guard characters.count >= needle.count,
            let keyAt = (0...(characters.count - needle.count)).first(where: { characters[$0..<($0 + needle.count)].elementsEqual(needle) })
        else { return nil }
        var index = keyAt + needle.count
        func skipSpaces() { while index < characters.count, characters[index] == " " { index += 1 } }
        skipSpaces()
        guard index < characters.count, characters[index] == ":" else { return nil }
        index += 1
        skipSpaces()
        guard index < characters.count, characters[index] == "\"" else { return nil }
        index += 1
        guard let close = characters[index...].firstIndex(of: "\"") else { return nil }
        let value = characters[index..<close]
        return value.contains("\\") ? nil : String(value)
    }
}
