import SystemKit

/// The CLI's end of the daemon channel (the picker socket, see `PickerSocketServer`): one
/// call, one reply.
public enum PickerSocketClient {
    /// What became of a call.
    public enum Outcome {
        /// No daemon answers on that socket (none, or one of an older photofs).
        case unavailable
        /// The daemon's reply (its `errno` 0 is success).
        case replied(ChannelReply)
        /// The socket was there but the exchange failed part-way (the daemon may or may not
        /// have carried the call out).
        case failed(String)
    }

    /// Sends `call` to the daemon of `mountpoint` (canonical path bytes) and reads its reply.
    public static func call(_ call: ChannelCall, mountpoint: [UInt8], environment: [String: String]) -> Outcome {
        let directory = PickerSocketPath.directory(environment: environment)
        // Only a directory of our own: anyone else could have put a socket there.
        guard PickerSocketPath.problem(with: directory) == nil else { return .unavailable }
        let path = PickerSocketPath.socket(mountpoint: mountpoint, environment: environment)
        guard let socket = try? FileDescriptor.connectUnixSocket(path) else { return .unavailable }
        defer { socket.close() }
        // The daemon runs as the mounting user: a socket answered by anyone else is not it.
        guard let server = socket.peerUserID(), server == CurrentProcess.realUserID || server == 0 else {
            return .failed("the process listening on \(path) is not the photofs daemon of this user")
        }
        let request = ChannelCoding.encode(call)
        var sent = 0
        while sent < request.count {
            let count: Int
            do throws(Errno) {
                count = try socket.send(request[sent...])
            } catch {
                // A daemon that stopped reading (it refused the call) may still have replied.
                if error == .brokenPipe { break }
                return .failed("cannot send to \(path): \(error)")
            }
            if count == 0 { return .failed("cannot send to \(path): \(Errno.ioError)") }
            sent += count
        }
        socket.shutdownSending()
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while reply.count < ChannelCoding.maximumCall {
            let count: Int
            do throws(Errno) {
                count = try socket.receive(into: &buffer)
            } catch {
                return .failed("no answer from the photofs daemon on \(path): \(error)")
            }
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
    public static func isListening(_ path: String) -> Bool {
        guard let socket = try? FileDescriptor.connectUnixSocket(path) else { return false }
        socket.close()
        return true
    }
}
