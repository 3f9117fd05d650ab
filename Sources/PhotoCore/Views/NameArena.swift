/// The names of one part's nodes, back to back in chunks of bytes: a node holds where its
/// name starts and how long it is (`NameSpan`), not a heap buffer of its own.
///
/// A million-asset library has four million names. Each in its own array cost a header, an
/// allocation and a reference count, and listing a directory touched one scattered buffer
/// per name; here the names of a directory lie next to each other in the order they were
/// added. Chunks are copy-on-write like `ChunkedArray`: a patch that appends a few names
/// copies the last chunk only. A name never crosses a chunk boundary, so it can be read in
/// place. Names of removed nodes stay behind as unused bytes until the part is built again.
struct NameArena: Sendable {
    /// Bytes per chunk; a name is at most `ViewNaming.nameMax` bytes, far less.
    static let chunkSize = 1 << 16

    private var chunks: [[UInt8]] = []

    init() {}

    /// Stores `name` and returns where it lies.
    mutating func append(_ name: [UInt8]) -> NameSpan {
        name.withUnsafeBufferPointer { append($0) }
    }

    /// Stores `name` and returns where it lies.
    mutating func append(_ name: UnsafeBufferPointer<UInt8>) -> NameSpan {
        precondition(name.count < Self.chunkSize, "a name longer than a chunk")
        if chunks.isEmpty || chunks[chunks.count - 1].count + name.count > Self.chunkSize {
            var chunk: [UInt8] = []
            // Small parts (an app with a few grants) keep small chunks; large ones grow to full size.
            chunk.reserveCapacity(chunks.isEmpty ? max(64, name.count) : Self.chunkSize)
            chunks.append(chunk)
        }
        let chunk = chunks.count - 1
        let offset = chunks[chunk].count
        chunks[chunk].append(contentsOf: name)
        return NameSpan(start: UInt32(chunk) << 16 | UInt32(offset), count: UInt16(name.count))
    }

    /// Calls `body` with the bytes of the name at `span`, read in place (valid during the call).
    @inline(__always)
    func withName<Result>(_ span: NameSpan, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let (chunk, offset, count) = (Int(span.start >> 16), Int(span.start & 0xFFFF), Int(span.count))
        if count == 0 { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return chunks[chunk].withUnsafeBufferPointer { bytes in
            body(UnsafeBufferPointer(rebasing: bytes[offset..<offset + count]))
        }
    }

    /// A copy of the name at `span`.
    func name(_ span: NameSpan) -> [UInt8] { withName(span) { Array($0) } }

    /// Whether the name at `span` is `name`.
    func name(_ span: NameSpan, equals name: [UInt8]) -> Bool {
        guard Int(span.count) == name.count else { return false }
        return withName(span) { stored in name.withUnsafeBufferPointer { stored.elementsEqual($0) } }
    }

    /// Whether the name at `span` sorts before the name at `other` (byte-wise).
    func precedes(_ span: NameSpan, _ other: NameSpan) -> Bool {
        withName(span) { left in withName(other) { right in Self.precedes(left, right) } }
    }

    /// Byte-wise order of two names (what `ls` in the C locale shows).
    static func precedes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        ViewNaming.order(left, right) < 0
    }
}

/// Where one name lies in a `NameArena`: chunk number and offset packed in `start`. Six
/// bytes, so that a `PartNode` has room for its scope index beside it.
struct NameSpan: Hashable, Sendable {
    let start: UInt32
    let count: UInt16

    /// The span of the empty name (the root's).
    static let empty = NameSpan(start: 0, count: 0)
}
