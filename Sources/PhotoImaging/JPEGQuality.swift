/// A JPEG quality as people write it: a fraction like the iOS picker's `0.8`, or a
/// libjpeg-style whole number `1...100`.
public enum JPEGQuality {
    /// The libjpeg quality (1...100) of `text`, or nil when it is neither form.
    public static func parse(_ text: String) -> Int? {
        if text.contains(".") {
            guard let fraction = Double(text), fraction > 0, fraction <= 1 else { return nil }
            return max(1, Int((fraction * 100).rounded()))
        }
        guard let whole = Int(text), (1...100).contains(whole) else { return nil }
        return whole
    }
}
