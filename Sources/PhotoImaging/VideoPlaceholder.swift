/// The thumbnail of a video without a picture photofs can decode: a dark frame in the
/// video's shape with a play symbol and the duration (`m:ss` or `h:mm:ss`) drawn in a
/// small built-in digit font.
enum VideoPlaceholder {
    /// 3×5 glyphs for 0-9 and ':', one row of 3 bits per line.
    private static let glyphs: [Character: [UInt8]] = [
        "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7], "4": [5, 5, 7, 1, 1],
        "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1], "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7],
        ":": [0, 2, 0, 2, 0],
    ]

    static func image(box: Int, videoWidth: Int?, videoHeight: Int?, seconds: Double?) -> PixelImage {
        let known = (videoWidth ?? 0) > 0 && (videoHeight ?? 0) > 0
        let size = PixelImage.fittedSize(width: known ? videoWidth! : 16, height: known ? videoHeight! : 9, box: 4096)
        let fitted = PixelImage.fittedSize(width: size.width * box, height: size.height * box, box: box)
        var image = PixelImage(width: max(fitted.width, 8), height: max(fitted.height, 8), filledWith: (40, 40, 44))
        let w = image.width
        let h = image.height
        // A play triangle in the middle.
        let side = max(4, min(w, h) / 3)
        for dy in 0..<side {
            let reach = side / 2 - abs(dy - side / 2)
            for dx in 0..<max(1, reach) {
                set(&image, w / 2 - side / 4 + dx, h / 2 - side / 2 + dy, (230, 230, 230))
            }
        }
        drawDuration(seconds, on: &image, backing: nil)
        return image
    }

    /// A video's poster frame with a small play symbol in its lower left corner and the
    /// duration in its lower right, each on a dark patch so that they read on any picture.
    static func stamped(_ frame: PixelImage, seconds: Double?) -> PixelImage {
        var image = frame.channels == 3 ? frame : frame.flattened()
        let h = image.height
        let scale = max(1, h / 40)
        let side = 5 * scale
        let margin = 2 * scale
        fill(&image, x: margin - scale, y: h - side - margin - scale, width: side + 2 * scale, height: side + 2 * scale, (20, 20, 24))
        for dy in 0..<side {
            let reach = (side + 1) / 2 - abs(dy - side / 2)
            for dx in 0..<max(1, reach) { set(&image, margin + dx, h - side - margin + dy, (240, 240, 240)) }
        }
        drawDuration(seconds, on: &image, backing: (20, 20, 24))
        return image
    }

    /// Draws `seconds` as `m:ss` or `h:mm:ss` in the lower right corner, on a patch of
    /// `backing` when given.
    private static func drawDuration(_ seconds: Double?, on image: inout PixelImage, backing: (UInt8, UInt8, UInt8)?) {
        let w = image.width
        let h = image.height
        guard let seconds, seconds.isFinite, seconds >= 0 else { return }
        let total = Int(seconds.rounded())
        let text =
            total >= 3600
            ? "\(total / 3600):" + twoDigits(total % 3600 / 60) + ":" + twoDigits(total % 60)
            : "\(total / 60):" + twoDigits(total % 60)
        let scale = max(1, h / 40)
        let textWidth = text.count * 4 * scale
        var x = max(0, w - textWidth - 2 * scale)
        let y = max(0, h - 7 * scale)
        if let backing { fill(&image, x: x - scale, y: y - scale, width: textWidth + 2 * scale, height: 7 * scale, backing) }
        for character in text {
            for (row, bits) in (glyphs[character] ?? []).enumerated() {
                for column in 0..<3 where bits & (4 >> UInt8(column)) != 0 {
                    for sy in 0..<scale {
                        for sx in 0..<scale { set(&image, x + column * scale + sx, y + row * scale + sy, (255, 255, 255)) }
                    }
                }
            }
            x += 4 * scale
        }
    }

    private static func fill(_ image: inout PixelImage, x: Int, y: Int, width: Int, height: Int, _ rgb: (UInt8, UInt8, UInt8)) {
        for row in y..<(y + max(0, height)) {
            for column in x..<(x + max(0, width)) { set(&image, column, row, rgb) }
        }
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    private static func set(_ image: inout PixelImage, _ x: Int, _ y: Int, _ rgb: (UInt8, UInt8, UInt8)) {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return }
        let p = (y * image.width + x) * 3
        image.pixels[p] = rgb.0
        image.pixels[p + 1] = rgb.1
        image.pixels[p + 2] = rgb.2
    }
}
