// libFuzzer target: the input is an AVI file's RIFF chunks (after a `RIFF....AVI ` header
// whose size covers the input), walked and planned.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRIFFWalker(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let header = Array("RIFF".utf8) + TIFFByteOrder.littleEndian.bytes(of: UInt32(truncatingIfNeeded: body.count + 4)) + Array("AVI ".utf8)
    fuzzWalkAndPlan(header + body, as: .avi)
    return 0
}
