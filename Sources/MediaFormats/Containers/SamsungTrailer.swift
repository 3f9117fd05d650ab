/// Reads a Samsung trailer (SEF), which Samsung phones append to JPEG files: data blocks,
/// then a directory, then its length and `SEFT`.
///
///     block     := 00 00, type (u16), name length (u32), name, value
///     directory := "SEFH", version (u32), count (u32), count × entry
///     entry     := 00 00, type (u16), distance back from the directory to the block (u32),
///                  block size (u32)
///     end       := directory length (u32), "SEFT"             (all little-endian)
///
/// The block named `MotionPhoto_Data` holds the motion photo's MP4. The others (capture
/// mode, UTC time, the mobile country code `MCC_Data`, depth maps, editor state) are
/// Samsung's own and not read.
struct SamsungTrailer {
    /// One data block: its name and where its value lies.
    struct Block {
        var name: String
        var value: ByteRange
    }

    /// The whole trailer, from its first block to `SEFT`.
    var extent: ByteRange
    var blocks: [Block]

    static let maxEntries = 1024

    /// The trailer ending the file, nil when there is none; `.failure` when the file ends
    /// with `SEFT` but the trailer does not read with certainty.
    static func read(_ reader: SourceReader) -> Result<SamsungTrailer, TrailerError>? {
        guard reader.size >= 20, let tail = reader.bytes(at: reader.size - 8, count: 8), ByteView(tail).matches("SEFT", at: 4) else {
            return nil
        }
        guard let length32 = ByteView(tail).u32(0, bigEndian: false), length32 >= 12, Int64(length32) <= reader.size - 8,
            Int(length32) <= 12 + 12 * maxEntries
        else {
            return .failure(TrailerError(reason: "a Samsung trailer whose directory length does not fit the file"))
        }
        let directoryStart = reader.size - 8 - Int64(length32)
        guard let directory = reader.bytes(at: directoryStart, count: Int(length32)), ByteView(directory).matches("SEFH", at: 0),
            let count = ByteView(directory).u32(8, bigEndian: false), 12 + 12 * Int64(count) <= Int64(length32)
        else {
            return .failure(TrailerError(reason: "a Samsung trailer without a readable SEFH directory"))
        }
        let view = ByteView(directory)
        var blocks: [Block] = []
        var first = directoryStart
        for index in 0..<Int(count) {
            let entry = 12 + 12 * index
            guard let back = view.u32(entry + 4, bigEndian: false), let size = view.u32(entry + 8, bigEndian: false),
                Int64(back) <= directoryStart, size >= 8, size <= back
            else {
                return .failure(TrailerError(reason: "a Samsung trailer entry that lies outside the file"))
            }
            let start = directoryStart - Int64(back)
            guard let head = reader.bytes(at: start, count: 8), let nameLength = ByteView(head).u32(4, bigEndian: false),
                Int64(nameLength) + 8 <= Int64(size), nameLength <= 256,
                let name = reader.bytes(at: start + 8, count: Int(nameLength))
            else {
                return .failure(TrailerError(reason: "a Samsung trailer block that does not read"))
            }
            let valueStart = start + 8 + Int64(nameLength)
            blocks.append(
                Block(
                    name: String(decoding: name.prefix { $0 != 0 }, as: UTF8.self),
                    value: ByteRange(offset: valueStart, length: start + Int64(size) - valueStart)))
            first = min(first, start)
        }
        return .success(SamsungTrailer(extent: ByteRange(offset: first, length: reader.size - first), blocks: blocks))
    }
}

/// Why a trailer could not be read with certainty.
struct TrailerError: Error, Hashable {
    var reason: String
}
