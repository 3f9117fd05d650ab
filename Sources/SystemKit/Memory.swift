import Glibc

/// Facts about memory and plain copies of bytes (the C library's `memcpy`, `memset`).
public enum Memory {
    /// The size of a page in bytes (`sysconf(_SC_PAGESIZE)`).
    public static var pageSize: Int { sysconf(Int32(_SC_PAGESIZE)) }

    /// Copies `count` bytes from `source` to `target` (the ranges must not overlap).
    @inlinable
    public static func copy(_ target: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count: Int) {
        _ = memcpy(target, source, count)
    }

    /// Sets `count` bytes at `target` to zero.
    @inlinable
    public static func zero(_ target: UnsafeMutableRawPointer, count: Int) {
        _ = memset(target, 0, count)
    }

    /// The order of the first `count` bytes at `a` and `b` (`memcmp`): negative, zero or
    /// positive as `a` sorts before, with or after `b`.
    @inlinable
    public static func compare(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Int32 { memcmp(a, b, count) }

    /// The length of the NUL-terminated string at `text`, without the NUL (`strlen`).
    @inlinable
    public static func stringLength(_ text: UnsafePointer<CChar>) -> Int { strlen(text) }
}
