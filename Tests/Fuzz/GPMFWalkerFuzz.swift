// libFuzzer target: the input is GPMF (the samples of a GoPro `gpmd` track). It is walked
// alone, then split in two samples of an MP4 whose `gpmd` track points at them (first byte:
// where to split, and whether the table uses `co64`), walked and planned.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPMFWalker(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    if case .streams(let streams) = GPMFWalker.walk(input) {
        for item in streams.flatMap(\.items) {
            precondition(item.offset >= 0 && item.data.upperBound <= input.count, "GPMF item outside the sample")
        }
    }
    guard let control = input.first else { return 0 }
    let body = Array(input.dropFirst())
    let cut = body.isEmpty ? 0 : Int(control >> 1) % (body.count + 1)
    fuzzWalkAndPlan(gpmfMovie([Array(body[..<cut]), Array(body[cut...])], co64: control & 1 == 1), as: .mp4)
    return 0
}

/// An MP4 (`mdat` then `moov`) whose one `gpmd` track has `samples`, one per chunk.
func gpmfMovie(_ samples: [[UInt8]], co64: Bool) -> [UInt8] {
    func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(payload.count + 8) + Array(type.utf8) + payload }
    func fullBox(_ type: String, _ payload: [UInt8]) -> [UInt8] { box(type, [0, 0, 0, 0] + payload) }
    let ftyp = box("ftyp", Array("mp41".utf8) + be32(0) + Array("isom".utf8))
    let mdat = box("mdat", samples.flatMap { $0 })
    var offsets: [Int] = []
    var position = ftyp.count + 8
    for sample in samples {
        offsets.append(position)
        position += sample.count
    }
    let stsd = fullBox("stsd", be32(1) + box("gpmd", [0, 0, 0, 0, 0, 0, 0, 1]))
    let stsc = fullBox("stsc", be32(1) + be32(1) + be32(1) + be32(1))
    let stsz = fullBox("stsz", be32(0) + be32(samples.count) + samples.flatMap { be32($0.count) })
    let chunks =
        co64
        ? fullBox("co64", be32(offsets.count) + offsets.flatMap { be32(0) + be32($0) })
        : fullBox("stco", be32(offsets.count) + offsets.flatMap(be32))
    let hdlr = fullBox("hdlr", be32(0) + Array("meta".utf8) + [UInt8](repeating: 0, count: 13))
    let trak = box("trak", box("mdia", hdlr + box("minf", box("stbl", stsd + stsc + stsz + chunks))))
    return ftyp + mdat + box("moov", trak)
}
