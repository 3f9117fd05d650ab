// Shared helper of the imaging libFuzzer targets (see run-imaging-fuzz.sh): PhotoCore and
// PhotoImaging are compiled into the target's module, so internal types are visible.

/// Renders `bytes` as `format` at two thumbnail sizes and checks what comes back: an
/// error is fine (malformed input must give one), a picture must fit its box and have
/// a pixel buffer of the right size, and its PNG must carry the text it was given.
func fuzzThumbnail(_ data: UnsafePointer<UInt8>, _ size: Int, format: MediaFormat) {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for box in [128, 512] {
        guard let rendered = try? Thumbnailer.render(bytes: bytes, format: format, box: box) else { continue }
        let image = rendered.image
        precondition(image.width > 0 && image.height > 0, "empty thumbnail")
        precondition(image.width <= box && image.height <= box, "thumbnail larger than its box")
        precondition(image.pixels.count == image.width * image.height * image.channels, "pixel buffer size")
        if box == 128, let png = try? PNGCodec.encode(image) {
            let text = (try? PNGChunks.addingText([("Thumb::URI", "file:///x"), ("Thumb::MTime", "1")], to: png)) ?? []
            precondition(PNGChunks.text(of: text)["Thumb::URI"] == "file:///x", "text chunk lost")
        }
    }
}
