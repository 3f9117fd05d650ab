/// The descriptor calls on Swift arrays, for callers that hold bytes rather than
/// pointers (the standard library's `withUnsafeBytes` does not carry a typed error).
extension FileDescriptor {
    /// Reads at most `buffer.count` bytes at the file position into the start of `buffer`
    /// (one `read`, repeated on EINTR); 0 at the end.
    public func read(into buffer: inout [UInt8]) throws(Errno) -> Int {
        try buffer.withUnsafeMutableBytes { raw in Self.catching { () throws(Errno) in try read(into: raw) } }.get()
    }

    /// Writes at most `bytes.count` bytes at the file position (one `write`, repeated on
    /// EINTR); the bytes written.
    public func write(_ bytes: some Collection<UInt8>) throws(Errno) -> Int {
        let contiguous = Array(bytes)
        return try contiguous.withUnsafeBytes { raw in Self.catching { () throws(Errno) in try write(raw) } }.get()
    }

    /// Sends from `bytes` on a socket without raising SIGPIPE; the bytes sent.
    public func send(_ bytes: some Collection<UInt8>) throws(Errno) -> Int {
        let contiguous = Array(bytes)
        return try contiguous.withUnsafeBytes { raw in Self.catching { () throws(Errno) in try send(raw) } }.get()
    }

    /// Receives into the start of `buffer` from a socket; 0 when the peer closed it.
    public func receive(into buffer: inout [UInt8]) throws(Errno) -> Int {
        try buffer.withUnsafeMutableBytes { raw in Self.catching { () throws(Errno) in try receive(into: raw) } }.get()
    }

    private static func catching<R>(_ body: () throws(Errno) -> R) -> Result<R, Errno> {
        do throws(Errno) { return .success(try body()) } catch { return .failure(error) }
    }
}
