import Glibc

/// A Unix datagram socket the test binds and reads, standing in for `/dev/log` or
/// `$NOTIFY_SOCKET`: what the daemon sends there is what syslog or systemd would get.
final class DatagramSocket {
    let path: String
    private let fd: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(description: "socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            throw Failure(description: "bind \(path): \(String(cString: strerror(errno)))")
        }
        chmod(path, 0o666)
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next datagram, or nil when none came within `timeout` seconds.
    func receive(timeout: Double) -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count >= 0 ? Array(buffer.prefix(count)) : nil
    }

    /// Datagrams as text until one contains `last` (included) or `timeout` seconds pass
    /// without one.
    func receive(until last: String, timeout: Double = 20) -> [String] {
        var messages: [String] = []
        while let datagram = receive(timeout: timeout) {
            let text = String(decoding: datagram, as: UTF8.self)
            messages.append(text)
            if text.contains(last) { break }
        }
        return messages
    }
}
