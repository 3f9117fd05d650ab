// libFuzzer target: the input is appended to a minimal JPEG, so its last 12 bytes are read
// as an AFCP trailer (`AXS!`/`AXS*`, start offset, checksum), then walked and planned.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAFCP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzWalkAndPlan([0xFF, 0xD8, 0xFF, 0xD9] + Array(UnsafeBufferPointer(start: data, count: size)), as: .jpeg)
    return 0
}
