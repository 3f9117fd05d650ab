import Glibc

/// The client end of a test's connection to a server it started.
public enum ClientSocket {
    /// Everything the peer sends on `fd` until it closes the connection (or an error ends it).
    public static func receiveAll(_ fd: Int32) -> [UInt8] {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return reply }
            reply += buffer[0..<count]
        }
    }
}
