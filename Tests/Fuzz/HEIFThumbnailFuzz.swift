// libFuzzer target: a HEIF thumbnail (thumbnail items, primary decode) and the compatible
// JPEG transcode with its EXIF carried over and location stripped.

func fuzzHEIFThumbnail(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzThumbnail(data, size, format: .heic)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let jpeg = try? CompatibleJPEG.transcode(bytes: bytes, quality: 80, location: .strip) {
        precondition(jpeg.starts(with: [0xFF, 0xD8]), "transcode is not a JPEG")
    }
    return 0
}
