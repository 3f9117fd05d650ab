/// An array kept in fixed-size chunks, each its own copy-on-write buffer: a copy that then
/// changes a few elements copies only their chunks and the list of chunks, not every element.
///
/// A library change patches a copy of the previous snapshot's assets and view nodes. As
/// plain arrays, each patch copied all of them (at 100,000 assets, 100,000 assets and
/// 400,000 nodes, each copy retaining every reference they hold) and briefly held both;
/// in chunks it copies a handful of chunks.
public struct ChunkedArray<Element> {
    /// Elements per chunk (a power of two).
    @usableFromInline static var chunkSize: Int { 4096 }
    @usableFromInline static var shift: Int { 12 }

    @usableFromInline var chunks: [[Element]] = []
    @usableFromInline var storedCount = 0

    @inlinable public var count: Int { storedCount }

    public init() {}

    public init(_ elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    /// `count` copies of `value`.
    public init(repeating value: Element, count: Int) {
        var left = count
        while left > 0 {
            let size = Swift.min(left, Self.chunkSize)
            chunks.append([Element](repeating: value, count: size))
            left -= size
        }
        storedCount = count
    }

    // Inlinable, so that a caller in another module (the catalog read appends a million
    // assets) gets it specialized, not the generic code with its metadata lookups per call.
    @inlinable
    public mutating func append(_ element: Element) {
        if count & (Self.chunkSize - 1) == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        storedCount += 1
    }

    /// Removes and returns the last element (the array must not be empty).
    @inlinable @discardableResult
    public mutating func removeLast() -> Element {
        let element = chunks[chunks.count - 1].removeLast()
        if chunks[chunks.count - 1].isEmpty { chunks.removeLast() }
        storedCount -= 1
        return element
    }

    /// The elements of `parts` with none of their full chunks copied: every full chunk of
    /// each part in turn, then the elements after them (each part's last, partly filled
    /// chunk), part by part. Fewer than `chunkSize` elements per part move. The order
    /// depends only on the parts: parts read from a catalog on several threads join the
    /// same way every time.
    public init(joining parts: [ChunkedArray]) {
        chunks.reserveCapacity(parts.reduce(0) { $0 + $1.chunks.count })
        for part in parts {
            for chunk in part.chunks where chunk.count == Self.chunkSize {
                chunks.append(chunk)
                storedCount += chunk.count
            }
        }
        for part in parts {
            guard let last = part.chunks.last, last.count < Self.chunkSize else { continue }
            for element in last { append(element) }
        }
    }

    /// The elements of `buffer`, copied chunk by chunk.
    init(copying buffer: UnsafeBufferPointer<Element>) {
        var start = 0
        chunks.reserveCapacity((buffer.count + Self.chunkSize - 1) >> Self.shift)
        while start < buffer.count {
            let end = Swift.min(buffer.count, start + Self.chunkSize)
            chunks.append(Array(UnsafeBufferPointer(rebasing: buffer[start..<end])))
            start = end
        }
        storedCount = buffer.count
    }

    /// Calls `body` with each chunk's elements in order (what writing them out reads).
    func forEachChunk(_ body: (UnsafeBufferPointer<Element>) -> Void) {
        for chunk in chunks { chunk.withUnsafeBufferPointer(body) }
    }

    /// Makes room for `capacity` elements in the list of chunks (chunks are made full size).
    public mutating func reserveCapacity(_ capacity: Int) {
        chunks.reserveCapacity((capacity + Self.chunkSize - 1) >> Self.shift)
    }
}

extension ChunkedArray: RandomAccessCollection, MutableCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable
    public subscript(position: Int) -> Element {
        // Read in place: copying an element out would retain each reference it holds.
        _read { yield chunks[position >> Self.shift][position & (Self.chunkSize - 1)] }
        _modify { yield &chunks[position >> Self.shift][position & (Self.chunkSize - 1)] }
    }
}

extension ChunkedArray: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension ChunkedArray: Equatable where Element: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.count == b.count && a.elementsEqual(b) }
}

extension ChunkedArray: Hashable where Element: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
