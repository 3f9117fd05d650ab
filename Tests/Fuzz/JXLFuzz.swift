// libFuzzer target: JPEG XL decoding (first frame, upright), its EXIF box (Brotli too),
// its thumbnail and its compatible JPEG with location stripped. Inputs that sniff as
// another format are left to that format's target (a mutated AVIF seed reaches libheif
// and libdav1d, which HEIFThumbnailFuzz covers).

func fuzzJXL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard MediaSniffer.format(of: MemoryByteSource(bytes)) == .jxl else { return 0 }
    fuzzThumbnail(data, size, format: .jxl)
    _ = JXLCodec.exif(bytes)
    if let jpeg = try? CompatibleJPEG.transcode(bytes: bytes, quality: 80, location: .strip) {
        precondition(jpeg.starts(with: [0xFF, 0xD8]), "transcode is not a JPEG")
    }
    return 0
}
