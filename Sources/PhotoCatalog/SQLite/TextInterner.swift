import PhotoCore

/// Hands out one shared `String` per distinct text value while many rows are read: a
/// library of 100,000 photos from a dozen cameras holds a dozen makes, models and lens
/// names, not 100,000 copies of each (about 14 MB at that size).
///
/// Values of up to 15 UTF-8 bytes are stored inside the `String` itself and are not
/// cached. At most `limit` values are kept, so a column of unique texts costs a bounded
/// table, not a second copy of the column.
struct TextInterner {
    private var buckets: [Int: [String]] = [:]
    private var count = 0
    /// The camera texts handed out, each kept once (up to `limit`).
    private var cameras: Set<CameraTexts> = []
    static let limit = 4096

    /// `texts`, or equal texts handed out before.
    mutating func camera(_ texts: CameraTexts) -> CameraTexts {
        if let known = cameras.firstIndex(of: texts) { return cameras[known] }
        if cameras.count < Self.limit { cameras.insert(texts) }
        return texts
    }

    /// The text of `bytes` (invalid UTF-8 repaired with U+FFFD), shared with earlier equal values.
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if bytes.count <= 15 { return String(decoding: bytes, as: UTF8.self) }
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        let hash = hasher.finalize()
        if let known = buckets[hash] {
            for text in known where text.utf8.elementsEqual(bytes) { return text }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if count < Self.limit {
            buckets[hash, default: []].append(text)
            count += 1
        }
        return text
    }
}
