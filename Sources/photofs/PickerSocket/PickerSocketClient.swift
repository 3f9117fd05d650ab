import Glibc

/// The CLI's end of the daemon channel (the picker socket, see `PickerSocketServer`): one
/// call, one reply.
enum PickerSocketClient {
    /// What became of a call.
    enum Outcome {
        /// No daemon answers on that socket (none, or one of an older photofs).
        case unavailable
        /// The daemon's reply (its `errno` 0 is success).
        case replied(ChannelReply)
        /// The socket was there but the exchange failed part-way (the daemon may or may not
        /// have carried the call out).
        case failed(String)
    }

    /// Sends `call` to the daemon of `mountpoint` (canonical path bytes) and reads its reply.
    static func call(_ call: ChannelCall, mountpoint: [UInt8], environment: [String: String]) -> Outcome {
        let directory = PickerSocketPath.directory(environment: environment)
        // Only a directory of our own: anyone else could have put a socket there.
        guard PickerSocketPath.problem(with: directory) == nil else { return .unavailable }
        let path = PickerSocketPath.socket(mountpoint: mountpoint, environment: environment)
        let fd = connected(path)
        guard fd >= 0 else { return .unavailable }
        defer { close(fd) }
        // The daemon runs as the mounting user: a socket answered by anyone else is not it.
        guard let server = PickerSocketPath.peerUID(fd), server == getuid() || server == 0 else {
            return .failed("the process listening on \(path) is not the photofs daemon of this user")
        }
        let request = ChannelCoding.encode(call)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EPIPE { break }
            if count <= 0 { return .failed("cannot send to \(path): \(String(cString: strerror(errno)))") }
            sent += count
        }
        shutdown(fd, Int32(SHUT_WR))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while reply.count < ChannelCoding.maximumCall {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return .failed("no answer from the photofs daemon on \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            reply += buffer[0..<count]
        }
        guard let answer = ChannelCoding.decode(ChannelReply.self, from: reply) else {
            return reply.isEmpty
                ? .failed("the photofs daemon on \(path) closed the connection without an answer")
                : .unavailable
        }
        return .replied(answer)
    }

    /// Whether a daemon accepts connections on `path`.
    static func isListening(_ path: String) -> Bool {
        let fd = connected(path)
        if fd >= 0 { close(fd) }
        return fd >= 0
    }

    /// A socket connected to `path`, or -1.
    private static func connected(_ path: String) -> Int32 {
        guard var address = PickerSocketPath.address(path) else { return -1 }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            close(fd)
            return -1
        }
        return fd
    }
}
