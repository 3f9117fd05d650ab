// libFuzzer target: the TIFF/IFD walker over the whole input as one block, then the
// EXIF redactor (strip and coarse) on what it found.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTIFFWalker(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = fuzzInput(data, size)
    let block = ByteRange(offset: 0, length: Int64(size))
    let layout = TIFFWalker().walk(source, block: block)
    for directory in layout.directories {
        let range = directory.byteRange
        precondition(range.offset >= 0 && range.end <= block.end, "directory outside the block")
        for entry in directory.entries {
            if let value = entry.value {
                precondition(value.offset >= 0 && value.end <= block.end, "value outside the block")
            }
        }
    }
    let container = ContainerLayout(format: .jpeg, exifBlocks: [block])
    let plans = RedactionPlanner.plans(layout: container, source: source)
    checkPlan(plans.strip, fileSize: Int64(size), original: source.bytes)
    checkPlan(plans.coarse, fileSize: Int64(size), original: source.bytes)
    return 0
}
