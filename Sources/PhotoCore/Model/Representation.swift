import MediaFormats

/// How an app is handed its photos (`--representation`): as stored, or, for apps that cannot
/// read them, HEIC/HEIF/AVIF and JPEG XL as JPEG (the iOS picker's "compatible" representation).
public enum Representation: String, Hashable, Sendable, CaseIterable {
    case original
    case compatible

    /// The formats a compatible view serves as JPEG; every other format is served as stored.
    public static let convertedFormats: Set<MediaFormat> = [.heic, .heif, .avif, .jxl]

    /// Whether an asset of `format` is served as JPEG under this representation.
    public func servesJPEG(for format: MediaFormat) -> Bool {
        self == .compatible && Self.convertedFormats.contains(format)
    }
}

/// A JPEG quality (`--quality`), kept as libjpeg's 1...100 and written as people write it:
/// a fraction like the iOS picker's `jpegData(compressionQuality: 0.8)`, or a whole number.
public enum JPEGQualityText {
    /// The default, 0.8 as in the classic iOS picker.
    public static let defaultQuality = 80

    /// The quality (1...100) of `text` (`0.8`, `0.85`, `1.0`, or `1`...`100`), or nil.
    public static func parse(_ text: String) -> Int? {
        if text.contains(".") {
            guard text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }), let fraction = Double(text),
                fraction > 0, fraction <= 1
            else { return nil }
            return max(1, Int((fraction * 100).rounded()))
        }
        guard text.utf8.count <= 3, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let whole = Int(text), (1...100).contains(whole)
        else { return nil }
        return whole
    }

    /// `quality` as a fraction: 80 → `0.8`, 85 → `0.85`, 100 → `1.0` (what `parse` reads back).
    public static func text(_ quality: Int) -> String {
        let clamped = min(100, max(1, quality))
        if clamped == 100 { return "1.0" }
        let hundredths = clamped % 10 == 0 ? String(clamped / 10) : (clamped < 10 ? "0" : "") + String(clamped)
        return "0." + hundredths
    }
}

/// What a file node of the view tree serves: the asset's own bytes (possibly redacted), or
/// the compatible JPEG made from it at a quality.
public enum FileRepresentation: Hashable, Sendable {
    case original
    case compatibleJPEG(quality: UInt8)
}
