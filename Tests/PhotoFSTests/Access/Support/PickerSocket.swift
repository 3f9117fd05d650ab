import Foundation
import Glibc
import MediaFormats
import PhotoCore
import PhotoHashing
import TestSupport

/// The daemon's channel (the picker socket) as the CLI uses it, from outside: one
/// connection, one JSON call (here a picker write), one JSON reply (`errno`, `message`).
enum PickerSocket {
    /// Where the daemon of `mountpoint` listens: `$XDG_RUNTIME_DIR/photofs`, else
    /// `/run/photofs` for root, else `/tmp/photofs-UID`, and a name from the mountpoint.
    static func path(mountpoint: String) -> String {
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let directory = runtime.map { $0 + "/photofs" } ?? (getuid() == 0 ? "/run/photofs" : "/tmp/photofs-\(getuid())")
        return directory + "/picker-" + SHA256.hex(SHA256.hash(Array(mountpoint.utf8))).prefix(16) + ".sock"
    }

    /// Sends `text` as a picker write; the errno (0 on success) and the reason the daemon gave.
    static func send(_ mountpoint: String, _ text: String) -> PickerFile.Outcome {
        let call: [String: Any] = ["picker": ["text": Data(text.utf8).base64EncodedString()]]
        guard let request = try? Array(JSONSerialization.data(withJSONObject: call)) else {
            return PickerFile.Outcome(errno: -1, reason: "cannot encode")
        }
        return exchange(mountpoint, request)
    }

    /// Sends one JSON call; the reply's errno and message.
    static func exchange(_ mountpoint: String, _ request: [UInt8]) -> PickerFile.Outcome {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return PickerFile.Outcome(errno: errno, reason: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path(mountpoint: mountpoint).utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return PickerFile.Outcome(errno: errno, reason: "connect failed") }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return PickerFile.Outcome(errno: errno, reason: "send failed") }
            sent += count
        }
        shutdown(fd, Int32(SHUT_WR))
        let reply = ClientSocket.receiveAll(fd)
        guard let object = (try? JSONSerialization.jsonObject(with: Data(reply))) as? [String: Any],
            let code = (object["errno"] as? NSNumber)?.int32Value
        else {
            return PickerFile.Outcome(errno: -1, reason: "not a reply: \(String(decoding: reply, as: UTF8.self).debugDescription)")
        }
        return PickerFile.Outcome(errno: code, reason: object["message"] as? String ?? "")
    }
}
