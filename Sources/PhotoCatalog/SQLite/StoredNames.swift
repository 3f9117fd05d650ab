import MediaFormats

/// Decodes the short names stored in the `format` and `date_source` columns straight from
/// their bytes: a million rows need no `String` and no string switch each (together about
/// 5% of a catalog read).
struct StoredNames: Sendable {
    private let formats: [(key: ShortText, format: MediaFormat)]
    private let dateSources: [(key: ShortText, source: DateSource)]

    /// The names of every format and date source.
    static let standard = StoredNames()

    private init() {
        formats = MediaFormat.allCases.compactMap { format in ShortText(format.rawValue).map { ($0, format) } }
        // The usual first: a row's name is found after one comparison or two.
        let sources: [DateSource] = [.dateTimeOriginal, .fileModification, .createDate, .dateTimeDigitized, .modifyDate, .quickTime, .xmp]
        dateSources = sources.compactMap { source in ShortText(source.rawValue).map { ($0, source) } }
    }

    /// The format these bytes name, nil when none does.
    func format(_ bytes: UnsafeBufferPointer<UInt8>) -> MediaFormat? {
        guard let key = ShortText(bytes) else { return nil }
        for entry in formats where entry.key == key { return entry.format }
        // A name added to `MediaFormat` later than this table knows of.
        return MediaFormat(rawValue: String(decoding: bytes, as: UTF8.self))
    }

    /// The date source these bytes name, nil when none does.
    func dateSource(_ bytes: UnsafeBufferPointer<UInt8>) -> DateSource? {
        if let key = ShortText(bytes) {
            for entry in dateSources where entry.key == key { return entry.source }
        }
        // A source missing from the list above still reads, the slow way.
        return DateSource(rawValue: String(decoding: bytes, as: UTF8.self))
    }
}

/// Up to 16 bytes of text held in two words, compared as two words.
private struct ShortText: Equatable, Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    private let count: Int

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 16 else { return nil }
        count = bytes.count
        for index in 0..<min(count, 8) { low |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        for index in min(count, 8)..<count { high |= UInt64(bytes[index]) << (8 * UInt64(index - 8)) }
    }

    init?(_ text: String) {
        var text = text
        guard let key = text.withUTF8({ ShortText($0) }) else { return nil }
        self = key
    }
}
