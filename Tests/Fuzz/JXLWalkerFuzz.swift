// libFuzzer target: the input follows a JPEG XL container signature and is walked as
// ISO-BMFF boxes (Exif, xml , brob, jumb, jbrd ...), then planned.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJXLWalker(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzWalkAndPlan(JXLWalker.containerSignature + Array(UnsafeBufferPointer(start: data, count: size)), as: .jxl)
    return 0
}
