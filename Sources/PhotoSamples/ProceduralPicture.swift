/// Draws a deterministic picture from a seed: a two-colour gradient sky, a horizon band
/// and a few discs and rectangles. Every seed gives different pixels, so every generated
/// photo has its own content fingerprint, and the shapes give the JPEG encoder real
/// edges to work on.
public enum ProceduralPicture {
    public static func draw(seed: UInt64, width: Int, height: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        guard image.width > 0, image.height > 0 else { return image }
        var random = SeededRandom(seed: seed)
        let top = color(&random), bottom = color(&random), ground = color(&random)
        let horizon = height * random.int(45...85) / 100
        let tilt = random.int(-40...40)
        let w = image.width, h = image.height
        image.pixels.withUnsafeMutableBufferPointer { px in
            for y in 0..<h {
                // Both colours depend on the row only; the pixel just picks one.
                let shade = (y - horizon) * 64 / max(h, 1)
                let land = (0..<3).map { UInt8(clamping: Int(ground[$0]) - shade) }
                let t = min(y * 256 / max(horizon, 1), 256)
                let sky = (0..<3).map { UInt8(clamping: (Int(top[$0]) * (256 - t) + Int(bottom[$0]) * t) >> 8) }
                for x in 0..<w {
                    let i = (y * w + x) * 3
                    // The horizon leans with `tilt` so pictures differ even in shape.
                    let colour = y * 100 > horizon * 100 + (x - w / 2) * tilt / 2 ? land : sky
                    px[i] = colour[0]
                    px[i + 1] = colour[1]
                    px[i + 2] = colour[2]
                }
            }
            for _ in 0..<random.int(2...5) {
                let fill = color(&random)
                let cx = random.int(0...(w - 1)), cy = random.int(0...(h - 1))
                let size = random.int(max(2, min(w, h) / 12)...max(3, min(w, h) / 3))
                let round = random.chance(0.5)
                for y in max(0, cy - size)...min(h - 1, cy + size) {
                    for x in max(0, cx - size)...min(w - 1, cx + size) {
                        if round, (x - cx) * (x - cx) + (y - cy) * (y - cy) > size * size { continue }
                        let i = (y * w + x) * 3
                        px[i] = fill[0]
                        px[i + 1] = fill[1]
                        px[i + 2] = fill[2]
                    }
                }
            }
        }
        return image
    }

    private static func color(_ random: inout SeededRandom) -> [UInt8] {
        [UInt8(random.int(0...255)), UInt8(random.int(0...255)), UInt8(random.int(0...255))]
    }
}
