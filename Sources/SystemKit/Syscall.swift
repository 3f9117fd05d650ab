import Glibc

/// The one rule for calls that fail with -1 and `errno`: a call interrupted by a signal
/// (EINTR) is made again; any other failure is thrown as its `Errno`.
public enum Syscall {
    /// Calls `call` until it returns anything but -1 with EINTR; its result, or the errno
    /// it failed with.
    @inlinable
    public static func retrying<T: FixedWidthInteger>(_ call: () -> T) throws(Errno) -> T {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = errno
            if code != EINTR { throw Errno(rawValue: code) }
        }
    }

    /// Calls `call` once; its result, or the errno it failed with (-1).
    @inlinable
    public static func checked<T: FixedWidthInteger>(_ call: () -> T) throws(Errno) -> T {
        let result = call()
        if result == -1 { throw Errno(rawValue: errno) }
        return result
    }
}
