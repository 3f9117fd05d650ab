// libFuzzer target: a JPEG thumbnail (EXIF and MPF previews, DCT-scaled decode, orientation).

func fuzzJPEGThumbnail(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzThumbnail(data, size, format: .jpeg)
    return 0
}
