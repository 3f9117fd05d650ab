/// A window onto part of another source: offset 0 is `range.offset` of the base. Lets a
/// walker read a file embedded in another (a motion photo's video) as if it stood alone;
/// `ContainerLayout.adopt(_:at:)` moves what it finds back to the outer file's offsets.
struct SlicedByteSource: ByteSource {
    let base: any ByteSource
    let range: ByteRange

    var size: Int64 { range.length }

    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= range.length, count >= 0 else { throw .outOfRange(offset: offset) }
        let available = Int(min(Int64(count), range.length - offset))
        return try base.read(at: range.offset + offset, count: available)
    }
}
