/// Random access to a file's bytes, for the container walkers.
///
/// Walkers must treat every offset and length read from a file as hostile: check it
/// against `size` before use, and never loop without progress.
public protocol ByteSource {
    /// The total number of bytes.
    var size: Int64 { get }
    /// Up to `count` bytes starting at `offset`; fewer only at the end of the source.
    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8]
}

/// Why bytes could not be read.
public enum ByteSourceError: Error, Hashable, Sendable {
    /// The offset lies outside the source.
    case outOfRange(offset: Int64)
    /// The operating system refused the read (errno).
    case io(errno: Int32)
}

/// A `ByteSource` over bytes already in memory (tests, small files).
public struct MemoryByteSource: ByteSource, Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var size: Int64 { Int64(bytes.count) }

    public func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= size, count >= 0 else { throw .outOfRange(offset: offset) }
        let start = Int(offset)
        let end = min(bytes.count, start + count)
        return Array(bytes[start..<end])
    }
}
