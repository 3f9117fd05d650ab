/// An 8-bit RGB picture, rows top to bottom, three bytes per pixel.
public struct RGBImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes: R, G, B of each pixel in row order.
    public var pixels: [UInt8]

    /// A black picture; a non-positive size gives an empty one.
    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 3)
    }

    /// Sets one pixel; coordinates outside the picture are ignored.
    public mutating func set(_ x: Int, _ y: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 3
        pixels[i] = r
        pixels[i + 1] = g
        pixels[i + 2] = b
    }
}
