import DaemonClient
import Dispatch
import FuseKit
import PhotoCore
import Synchronization
import SystemKit

/// The daemon's end of the daemon channel: a Unix socket beside the mount (see
/// `PickerSocketPath`), mode 0600 in a 0700 directory, on which each connection is one
/// typed call (`ChannelCall`, JSON) and one reply (`ChannelReply`), carried out by
/// `DaemonChannel`. It gives every CLI call, page and portal request its own outcome and
/// reason, which `.picker` cannot: the control file's rendering is shared by everyone who
/// reads it.
///
/// Only the mounting user and root are served: the peer's uid comes from the kernel
/// (`SO_PEERCRED`), whatever the socket's mode says.
final class PickerSocketServer: Sendable {
    let path: String
    private let listener: FileDescriptor
    private let channel: DaemonChannel
    private let log: Logger
    private let stopped = Atomic(false)
    private let connections = Atomic(0)
    private let finished = DispatchGroup()
    /// The most requests served at once; more are answered "busy" at once.
    private static let maximumConnections = 64

    private init(path: String, listener: FileDescriptor, channel: DaemonChannel, log: Logger) {
        self.path = path
        self.listener = listener
        self.channel = channel
        self.log = log
    }

    /// Binds the socket of `mountpoint` and starts accepting; nil (and a warning in the log)
    /// when it cannot, in which case the CLI writes `.picker` as before.
    static func start(
        mountpoint: [UInt8], channel: DaemonChannel, environment: [String: String], log: Logger
    ) -> PickerSocketServer? {
        let directory = PickerSocketPath.directory(environment: environment)
        if let problem = PickerSocketPath.prepare(directory) {
            log.warning("no picker socket (\(problem)); the CLI writes .picker instead")
            return nil
        }
        removeStaleSockets(in: directory)
        let path = PickerSocketPath.socket(mountpoint: mountpoint, environment: environment)
        guard FileDescriptor.fitsUnixSocketAddress(path) else {
            log.warning("no picker socket: the path \(path) is too long for a Unix socket")
            return nil
        }
        // A socket left by a daemon that was killed answers nothing: replace it. A live one
        // belongs to another mount of the same path: leave it.
        if PickerSocketClient.isListening(path) {
            log.warning("no picker socket: another daemon listens on \(path)")
            return nil
        }
        try? FileSystem.remove(path)
        let listener: FileDescriptor
        do throws(Errno) {
            listener = try FileDescriptor.listenUnixSocket(path, mode: 0o600, backlog: 64)
        } catch {
            log.warning("no picker socket: cannot listen on \(path): \(error)")
            return nil
        }
        let server = PickerSocketServer(path: path, listener: listener, channel: channel, log: log)
        server.finished.enter()
        DispatchQueue.global(qos: .userInitiated).async { server.acceptLoop() }
        log.debug("picker socket listening on \(path)")
        return server
    }

    /// Removes the sockets of daemons that were killed (nobody answers on them; a socket
    /// younger than a minute may be one another daemon is just setting up).
    private static func removeStaleSockets(in directory: String) {
        guard let names = try? FileSystem.names(inDirectory: directory) else { return }
        for name in names.map({ String(decoding: $0, as: UTF8.self) }) {
            guard name.hasPrefix("picker-"), name.hasSuffix(".sock") else { continue }
            let path = directory + "/" + name
            guard let status = try? FileStatus.ofLink(path: path), status.kind == .socket,
                SystemClock.wallSeconds() - status.ctimeSeconds > 60
            else { continue }
            if !PickerSocketClient.isListening(path) { try? FileSystem.remove(path) }
        }
    }

    /// Stops accepting, waits (briefly) for requests under way, removes the socket.
    func stop() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        listener.shutdown()
        _ = finished.wait(timeout: .now() + 5)
        listener.close()
        try? FileSystem.remove(path)
    }

    private func acceptLoop() {
        defer { finished.leave() }
        while !stopped.load(ordering: .acquiring) {
            let connection: FileDescriptor
            do throws(Errno) {
                connection = try listener.accept()
            } catch {
                if error == .connectionAborted { continue }
                if error == .tooManyOpenFiles || error == .tooManyOpenFilesInSystem {
                    SystemClock.sleep(milliseconds: 10)
                    continue
                }
                if !stopped.load(ordering: .acquiring) { log.error("picker socket: accept failed: \(error)") }
                return
            }
            guard connections.add(1, ordering: .relaxed).newValue <= Self.maximumConnections else {
                connections.subtract(1, ordering: .relaxed)
                send(ChannelCoding.encode(ChannelReply.refusal(.busy, "photofs: too many calls at once; try again")), to: connection)
                connection.close()
                continue
            }
            finished.enter()
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                defer {
                    connection.close()
                    connections.subtract(1, ordering: .relaxed)
                    finished.leave()
                }
                serve(connection)
            }
        }
    }

    /// One call: who asks, what, the daemon's answer, the reply.
    private func serve(_ connection: FileDescriptor) {
        guard let uid = connection.peerUserID(), uid == CurrentProcess.realUserID || uid == 0 else {
            send(
                ChannelCoding.encode(
                    ChannelReply.refusal(.permissionDenied, "only the user who mounted the library (or root) may use its daemon")),
                to: connection)
            return
        }
        connection.setReceiveTimeout(seconds: 30)
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do throws(Errno) {
                count = try connection.receive(into: &buffer)
            } catch {
                log.info("daemon channel: uid \(uid) call not read: \(error)")
                return
            }
            if count == 0 { break }
            request += buffer[0..<count]
            if request.count > ChannelCoding.maximumCall {
                send(
                    ChannelCoding.encode(
                        ChannelReply.refusal(.fileTooLarge, "the call is larger than \(ChannelCoding.maximumCall >> 20) MiB")),
                    to: connection)
                return
            }
        }
        guard let call = ChannelCoding.decode(ChannelCall.self, from: request) else {
            send(ChannelCoding.encode(ChannelReply.refusal(.invalidArgument, "not a call this photofs daemon understands")), to: connection)
            return
        }
        send(ChannelCoding.encode(channel.answer(call, caller: uid)), to: connection)
    }

    private func send(_ bytes: [UInt8], to connection: FileDescriptor) {
        var sent = 0
        while sent < bytes.count {
            guard let count = try? connection.send(bytes[sent...]), count > 0 else { return }
            sent += count
        }
    }
}
