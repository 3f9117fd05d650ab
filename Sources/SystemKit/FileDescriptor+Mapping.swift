import Glibc

extension FileDescriptor {
    /// Calls `body` with the first `size` bytes of the file mapped read-only and private,
    /// asked to be read ahead whole in one sequential pass; nil when it cannot be mapped.
    /// The mapping is gone when `body` returns.
    public func withMappedBytes<R>(size: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        guard size > 0, let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, rawValue, 0), mapped != MAP_FAILED else { return nil }
        defer { munmap(mapped, size) }
        _ = madvise(mapped, size, MADV_WILLNEED)
        _ = madvise(mapped, size, MADV_SEQUENTIAL)
        return body(UnsafeRawBufferPointer(start: mapped, count: size))
    }
}
