import SystemKit

/// Whole-frame reads and writes on a descriptor: a 4-byte big-endian length, then the
/// payload. Writes never raise SIGPIPE on sockets (`MSG_NOSIGNAL`).
enum FrameIO {
    /// Writes one frame; false when the peer is gone.
    static func write(_ payload: [UInt8], to fd: Int32) -> Bool {
        let n = UInt32(payload.count)
        let frame = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + payload
        let socket = FileDescriptor(rawValue: fd)
        var done = 0
        while done < frame.count {
            let sent = frame.withUnsafeBytes { try? socket.send(UnsafeRawBufferPointer(rebasing: $0[done...])) }
            guard let sent else { return false }
            done += sent
        }
        return true
    }

    /// Why a frame could not be read.
    enum ReadFailure: Error {
        case closed
        case timedOut
        case invalid
    }

    /// Reads one frame, waiting at most until `deadline` (monotonic seconds; nil waits forever).
    static func read(from fd: Int32, deadline: Double?) throws(ReadFailure) -> [UInt8] {
        let header = try exactly(4, from: fd, deadline: deadline)
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard length <= FrameCodec.maxFrame else { throw .invalid }
        return try exactly(length, from: fd, deadline: deadline)
    }

    private static func exactly(_ count: Int, from fd: Int32, deadline: Double?) throws(ReadFailure) -> [UInt8] {
        let socket = FileDescriptor(rawValue: fd)
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            if let deadline {
                let remaining = deadline - SystemClock.monotonicSeconds()
                guard remaining > 0 else { throw .timedOut }
                guard let ready = try? socket.waitReadable(milliseconds: Int32(min(remaining * 1000 + 1, 60_000))) else {
                    throw .closed
                }
                if ready == .waiting { continue }
            }
            let got = buffer.withUnsafeMutableBytes { try? socket.receive(into: UnsafeMutableRawBufferPointer(rebasing: $0[done...])) }
            guard let got, got > 0 else { throw .closed }
            done += got
        }
        return buffer
    }
}
