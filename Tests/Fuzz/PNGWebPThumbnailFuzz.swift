// libFuzzer target: PNG and WebP thumbnails (libpng simplified API, libwebp), chosen by the
// input's first byte so one corpus grows both.

func fuzzPNGWebPThumbnail(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 1 else { return 0 }
    fuzzThumbnail(data + 1, size - 1, format: data[0] & 1 == 0 ? .png : .webp)
    return 0
}
