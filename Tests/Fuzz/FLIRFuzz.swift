// libFuzzer target: the input is a FLIR FFF record, cut into APP1 `FLIR` segments of a
// JPEG (the first input byte picks the segment size, the second scrambles chunk numbers),
// then walked and planned.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFLIR(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 2 else { return 0 }
    let pieceSize = 16 + Int(input[0]) * 64
    let scramble = input[1]
    let record = Array(input[2...])
    let pieces = stride(from: 0, to: max(record.count, 1), by: pieceSize).map { Array(record[$0..<min($0 + pieceSize, record.count)]) }
    var file: [UInt8] = [0xFF, 0xD8]
    for (index, piece) in pieces.enumerated() {
        let number = scramble & 1 == 1 ? UInt8(truncatingIfNeeded: pieces.count - 1 - index) : UInt8(truncatingIfNeeded: index)
        let total = UInt8(truncatingIfNeeded: pieces.count - 1) &+ (scramble & 2 == 2 ? 1 : 0)
        let segment = Array("FLIR\0".utf8) + [1, number, total] + piece
        file += [0xFF, 0xE1] + TIFFByteOrder.bigEndian.bytes(of: UInt16(truncatingIfNeeded: segment.count + 2)) + segment
    }
    fuzzWalkAndPlan(file + [0xFF, 0xD9], as: .jpeg)
    return 0
}
