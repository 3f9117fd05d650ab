// libFuzzer target: the 1/8-scale JPEG decoder on its own (markers, Huffman tables, scans,
// restart intervals, quarter means), which the thumbnail target reaches only for pictures
// eight times larger than its boxes. A picture or nil, never a crash or a wrong-sized buffer.

func fuzzJPEGEighthScale(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let image = JPEGEighthScale.decode(Array(UnsafeBufferPointer(start: data, count: size))) {
        precondition(image.width > 0 && image.height > 0, "empty picture")
        precondition(image.channels == 3 && image.pixels.count == image.width * image.height * 3, "pixel buffer size")
    }
    return 0
}
