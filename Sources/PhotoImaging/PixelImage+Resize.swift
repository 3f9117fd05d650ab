extension PixelImage {
    /// The size that fits inside a `box`×`box` square keeping the aspect ratio, never larger
    /// than the image itself (thumbnails are not upscaled).
    public static func fittedSize(width: Int, height: Int, box: Int) -> (width: Int, height: Int) {
        guard width > box || height > box else { return (width, height) }
        if width >= height {
            return (box, max(1, Int((Double(height) * Double(box) / Double(width)).rounded())))
        }
        return (max(1, Int((Double(width) * Double(box) / Double(height)).rounded())), box)
    }

    /// The image shrunk to `newWidth`×`newHeight` by area averaging (every source pixel
    /// contributes by how much of it a target pixel covers), which does not alias on large
    /// reductions. Returns the image itself when the size is unchanged; never enlarges.
    public func downscaled(toWidth newWidth: Int, height newHeight: Int) -> PixelImage {
        precondition(newWidth > 0 && newHeight > 0, "empty target")
        if newWidth == width && newHeight == height { return self }
        let targetWidth = min(newWidth, width)
        let targetHeight = min(newHeight, height)
        let columns = AreaWeights(source: width, target: targetWidth)
        let rows = AreaWeights(source: height, target: targetHeight)
        let c = channels
        // Horizontal pass into floats (height × targetWidth), then vertical into bytes.
        var horizontal = [Float](repeating: 0, count: height * targetWidth * c)
        pixels.withUnsafeBufferPointer { src in
            horizontal.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let srcRow = y * width * c
                    let dstRow = y * targetWidth * c
                    for x in 0..<targetWidth {
                        var sums: (Float, Float, Float, Float) = (0, 0, 0, 0)
                        let first = columns.first[x]
                        for k in 0..<columns.count[x] {
                            let w = columns.weights[columns.offset[x] + k]
                            let p = srcRow + (first + k) * c
                            sums.0 += w * Float(src[p])
                            sums.1 += w * Float(src[p + 1])
                            sums.2 += w * Float(src[p + 2])
                            if c == 4 { sums.3 += w * Float(src[p + 3]) }
                        }
                        let q = dstRow + x * c
                        dst[q] = sums.0
                        dst[q + 1] = sums.1
                        dst[q + 2] = sums.2
                        if c == 4 { dst[q + 3] = sums.3 }
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: targetWidth * targetHeight * c)
        let rowLength = targetWidth * c
        horizontal.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<targetHeight {
                    let first = rows.first[y]
                    let dstRow = y * rowLength
                    for i in 0..<rowLength {
                        var sum: Float = 0
                        for k in 0..<rows.count[y] {
                            sum += rows.weights[rows.offset[y] + k] * src[(first + k) * rowLength + i]
                        }
                        dst[dstRow + i] = UInt8(min(255, max(0, sum + 0.5)))
                    }
                }
            }
        }
        return PixelImage(width: targetWidth, height: targetHeight, channels: c, pixels: out)
    }

    /// The image shrunk to fit a `box`×`box` square (see `fittedSize`).
    public func fitted(inBox box: Int) -> PixelImage {
        let size = Self.fittedSize(width: width, height: height, box: box)
        return downscaled(toWidth: size.width, height: size.height)
    }
}

/// For each target index along one axis: which source indices it covers and with which
/// weights (the overlap of each source cell with the target cell, normalised to sum 1).
private struct AreaWeights {
    var first: [Int] = []
    var count: [Int] = []
    var offset: [Int] = []
    var weights: [Float] = []

    init(source: Int, target: Int) {
        let scale = Double(source) / Double(target)
        for t in 0..<target {
            let start = Double(t) * scale
            let end = min(Double(source), Double(t + 1) * scale)
            let lo = Int(start)
            let hi = min(source, Int(end.rounded(.up)))
            first.append(lo)
            offset.append(weights.count)
            var taken = 0
            for s in lo..<max(hi, lo + 1) {
                let overlap = min(end, Double(s + 1)) - max(start, Double(s))
                weights.append(Float(max(0, overlap) / (end - start)))
                taken += 1
            }
            count.append(taken)
        }
    }
}
