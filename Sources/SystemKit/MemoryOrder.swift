import Glibc

/// Byte order of two buffers as `memcmp` gives it (what SQLite's BLOB comparison uses).
public enum MemoryOrder {
    /// Negative, zero or positive as the first `count` bytes of `a` sort before, with or
    /// after those of `b`.
    @inlinable
    public static func compare(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Int {
        Int(memcmp(a, b, count))
    }
}
