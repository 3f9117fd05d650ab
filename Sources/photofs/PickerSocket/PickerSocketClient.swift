import Glibc

/// The CLI's end of the picker socket (see `PickerSocketServer`): one request, one reply.
enum PickerSocketClient {
    /// What became of a request.
    enum Outcome {
        /// No daemon answers on that socket (none, or one of an older photofs): use `.picker`.
        case unavailable
        /// The daemon's answer: errno 0 is success, else the errno and the reason.
        case answered(errno: Int32, reason: String)
        /// The socket was there but the exchange failed part-way (the daemon may or may not
        /// have applied the request).
        case failed(String)
    }

    /// Sends `request` to the daemon of `mountpoint` (canonical path bytes).
    static func send(_ request: [UInt8], mountpoint: [UInt8], environment: [String: String]) -> Outcome {
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
        var buffer = [UInt8](repeating: 0, count: 4096)
        while reply.count < 1 << 16 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return .failed("no answer from the photofs daemon on \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            reply += buffer[0..<count]
        }
        guard let (code, reason) = PickerSocketMessage.parse(reply) else {
            return .failed("the photofs daemon on \(path) closed the connection without an answer")
        }
        return .answered(errno: code, reason: reason)
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
