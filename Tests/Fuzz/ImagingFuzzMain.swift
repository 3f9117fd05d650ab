import Glibc

// The one libFuzzer entry point of the imaging fuzz binary: PHOTOFS_FUZZ_TARGET names the
// target function (one build serves every target; run-imaging-fuzz.sh sets it per run).

/// The target this process fuzzes, read once from the environment.
let imagingFuzzTarget: @Sendable (UnsafePointer<UInt8>, Int) -> CInt = {
    switch getenv("PHOTOFS_FUZZ_TARGET").map({ String(cString: $0) }) {
    case "JPEGThumbnailFuzz": fuzzJPEGThumbnail
    case "JPEGEighthScaleFuzz": fuzzJPEGEighthScale
    case "HEIFThumbnailFuzz": fuzzHEIFThumbnail
    case "PNGWebPThumbnailFuzz": fuzzPNGWebPThumbnail
    case "TIFFPreviewFuzz": fuzzTIFFPreview
    case "DecoderFrameFuzz": fuzzDecoderFrames
    case "JXLFuzz": fuzzJXL
    default: fatalError("set PHOTOFS_FUZZ_TARGET to one of the imaging fuzz targets")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func imagingFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    imagingFuzzTarget(data, size)
}
