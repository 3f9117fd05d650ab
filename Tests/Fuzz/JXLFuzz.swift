// libFuzzer target: JPEG XL decoding (first frame, upright), its EXIF box (Brotli too),
// its thumbnail and its compatible JPEG with location stripped.

func fuzzJXL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzThumbnail(data, size, format: .jxl)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = JXLCodec.exif(bytes)
    if let jpeg = try? CompatibleJPEG.transcode(bytes: bytes, quality: 80, location: .strip) {
        precondition(jpeg.starts(with: [0xFF, 0xD8]), "transcode is not a JPEG")
    }
    return 0
}
