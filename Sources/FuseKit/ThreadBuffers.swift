import SystemKit

/// One reusable read buffer per FUSE worker thread (a `pthread` key whose destructor frees
/// it when the thread ends): allocating a fresh buffer per request halves throughput.
final class ThreadBuffers: Sendable {
    /// The size every buffer starts with: the largest FUSE read the kernel sends by default.
    static let initialCapacity = 1 << 20
    /// The largest buffer handed out; bigger requests are cut (the kernel then asks again).
    static let maximumCapacity = 16 << 20
    private let slot = ThreadLocalSlot<ThreadBuffer>()

    init() {}

    /// This thread's buffer, at least `count` bytes long (up to `maximumCapacity`).
    func buffer(atLeast count: Int) -> UnsafeMutableRawBufferPointer {
        let wanted = min(max(count, 1), Self.maximumCapacity)
        if let buffer = slot.value {
            if buffer.bytes.count >= wanted { return buffer.bytes }
            buffer.grow(to: wanted)
            return buffer.bytes
        }
        let buffer = ThreadBuffer(capacity: max(wanted, Self.initialCapacity))
        slot.set(buffer)
        return buffer.bytes
    }
}

/// A page-aligned heap buffer owned by one thread.
final class ThreadBuffer {
    private(set) var bytes: UnsafeMutableRawBufferPointer

    init(capacity: Int) {
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 4096)
    }

    func grow(to capacity: Int) {
        bytes.deallocate()
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 4096)
    }

    deinit {
        bytes.deallocate()
    }
}
