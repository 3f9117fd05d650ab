// libFuzzer target: a TIFF/DNG/raw thumbnail through embedded previews (JPEG previews and
// uncompressed RGB strips found by the IFD walker).

func fuzzTIFFPreview(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzThumbnail(data, size, format: .dng)
    fuzzThumbnail(data, size, format: .tiff)
    return 0
}
