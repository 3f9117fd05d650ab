// libFuzzer target: sniff the input's format, walk its container, plan its redaction.
// Every range the walker reports must lie inside the file.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContainerWalker(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = fuzzInput(data, size)
    let length = Int64(size)
    guard let format = MediaSniffer.format(of: source) else { return 0 }
    let layout = ContainerWalker.layout(of: source, format: format)
    func inside(_ range: ByteRange) -> Bool { range.offset >= 0 && range.length >= 0 && range.offset <= length - range.length }
    for range in layout.exifBlocks + layout.xmpPackets + (layout.movie?.locationPayloads ?? []) {
        precondition(inside(range), "layout range outside the file")
    }
    for chunk in layout.checksummedChunks {
        precondition(inside(chunk.covered) && inside(ByteRange(offset: chunk.checksumOffset, length: 4)), "chunk outside the file")
    }
    let plans = RedactionPlanner.plans(layout: layout, source: source)
    checkPlan(plans.strip, fileSize: length, original: source.bytes)
    checkPlan(plans.coarse, fileSize: length, original: source.bytes)
    return 0
}
