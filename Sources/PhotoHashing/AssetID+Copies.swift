import PhotoCore

extension AssetID {
    /// The ids an asset whose fingerprint is `fingerprint` (64 hex digits) may take, in the
    /// order they are tried: the fingerprint's first 12 digits, then for a further
    /// byte-identical copy (or a clash of that prefix) the first 12 digits of
    /// SHA-256("FINGERPRINT/1"), SHA-256("FINGERPRINT/2"), ... (endless). The indexer takes the
    /// first one no other asset holds, inside its write transaction, so the same library
    /// always gets the same ids.
    public static func candidates(for fingerprint: String) -> UnfoldSequence<AssetID, Int> {
        sequence(state: 0) { n in
            while true {
                let text = n == 0 ? fingerprint : SHA256.hex(SHA256.hash(Array("\(fingerprint)/\(n)".utf8)))
                n += 1
                if let id = AssetID(text.prefix(length)) { return id }
            }
        }
    }
}
