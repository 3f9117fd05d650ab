// libFuzzer target: the redaction planner with the input as an XMP packet, an EXIF block
// and a PNG-style checksummed chunk at once, and the plan decoder on the raw input.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlanner(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = fuzzInput(data, size)
    let length = Int64(size)
    // The first byte picks where the EXIF block starts, so headers are found at any offset.
    let exifStart = size > 0 ? min(Int64(data[0]), length) : 0
    let layout = ContainerLayout(
        format: .png,
        exifBlocks: [ByteRange(offset: exifStart, length: length - exifStart)],
        xmpPackets: [ByteRange(offset: 0, length: length)],
        checksummedChunks: length >= 4
            ? [ChecksummedChunk(covered: ByteRange(offset: 0, length: length - 4), checksumOffset: length - 4)] : []
    )
    let plans = RedactionPlanner.plans(layout: layout, source: source)
    checkPlan(plans.strip, fileSize: length, original: source.bytes)
    checkPlan(plans.coarse, fileSize: length, original: source.bytes)

    if let decoded = try? RedactionPlans(encoded: source.bytes) {
        precondition((try? RedactionPlans(encoded: decoded.encoded())) == decoded, "decode/encode does not round-trip")
    }
    return 0
}
