import SystemKit

/// Who owns the other end of a loopback TCP connection: the kernel's socket table
/// (`/proc/net/tcp`, this network namespace) lists the client's socket, by its address and
/// port, with the uid that created it. Loopback peers all share 127.0.0.1, so the address
/// alone cannot tell one local user from another; the uid can.
enum LoopbackPeer {
    /// The uid owning the TCP socket bound to `address:port` (network byte order address,
    /// host order port), or nil when the table has no such socket.
    static func owner(address: UInt32, port: UInt16, table: String = "/proc/net/tcp") -> UInt32? {
        guard let text = readAll(table) else { return nil }
        // `/proc/net/tcp` prints the address as the hex of its in-memory word, the port in
        // hex: 127.0.0.1:8080 is "0100007F:1F90".
        let wanted = hex(address, 8) + ":" + hex(UInt32(port), 4)
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, fields[1] == wanted else { continue }
            return UInt32(fields[7])
        }
        return nil
    }

    private static func hex(_ value: UInt32, _ width: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func readAll(_ path: String) -> String? {
        guard let fd = try? FileDescriptor.open(path, .readOnly) else { return nil }
        defer { fd.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { (try? fd.read(into: $0)) ?? 0 }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
