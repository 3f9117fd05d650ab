import Dispatch
import FuseKit
import Glibc
import PhotoCore
import Synchronization

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
    private let listener: Int32
    private let channel: DaemonChannel
    private let log: Logger
    private let stopped = Atomic(false)
    private let connections = Atomic(0)
    private let finished = DispatchGroup()
    /// The most requests served at once; more are answered "busy" at once.
    private static let maximumConnections = 64

    private init(path: String, listener: Int32, channel: DaemonChannel, log: Logger) {
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
        guard var address = PickerSocketPath.address(path) else {
            log.warning("no picker socket: the path \(path) is too long for a Unix socket")
            return nil
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            log.warning("no picker socket: socket() failed: \(String(cString: strerror(errno)))")
            return nil
        }
        // A socket left by a daemon that was killed answers nothing: replace it. A live one
        // belongs to another mount of the same path: leave it.
        if PickerSocketClient.isListening(path) {
            close(fd)
            log.warning("no picker socket: another daemon listens on \(path)")
            return nil
        }
        unlink(path)
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previous)
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 64) == 0 else {
            log.warning("no picker socket: cannot listen on \(path): \(String(cString: strerror(errno)))")
            close(fd)
            return nil
        }
        let server = PickerSocketServer(path: path, listener: fd, channel: channel, log: log)
        server.finished.enter()
        DispatchQueue.global(qos: .userInitiated).async { server.acceptLoop() }
        log.debug("picker socket listening on \(path)")
        return server
    }

    /// Removes the sockets of daemons that were killed (nobody answers on them; a socket
    /// younger than a minute may be one another daemon is just setting up).
    private static func removeStaleSockets(in directory: String) {
        guard let folder = opendir(directory) else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard name.hasPrefix("picker-"), name.hasSuffix(".sock") else { continue }
            let path = directory + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK, time(nil) - status.st_ctim.tv_sec > 60 else { continue }
            if !PickerSocketClient.isListening(path) { unlink(path) }
        }
    }

    /// Stops accepting, waits (briefly) for requests under way, removes the socket.
    func stop() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        _ = finished.wait(timeout: .now() + 5)
        close(listener)
        unlink(path)
    }

    private func acceptLoop() {
        defer { finished.leave() }
        while !stopped.load(ordering: .acquiring) {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE {
                    if errno == EMFILE || errno == ENFILE { usleep(10_000) }
                    continue
                }
                if !stopped.load(ordering: .acquiring) { log.error("picker socket: accept failed: \(String(cString: strerror(errno)))") }
                return
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            guard connections.add(1, ordering: .relaxed).newValue <= Self.maximumConnections else {
                connections.subtract(1, ordering: .relaxed)
                send(ChannelCoding.encode(ChannelReply.refusal(EBUSY, "photofs: too many calls at once; try again")), to: connection)
                close(connection)
                continue
            }
            finished.enter()
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                defer {
                    close(connection)
                    connections.subtract(1, ordering: .relaxed)
                    finished.leave()
                }
                serve(connection)
            }
        }
    }

    /// One call: who asks, what, the daemon's answer, the reply.
    private func serve(_ connection: Int32) {
        guard let uid = PickerSocketPath.peerUID(connection), uid == getuid() || uid == 0 else {
            send(
                ChannelCoding.encode(ChannelReply.refusal(EACCES, "only the user who mounted the library (or root) may use its daemon")),
                to: connection)
            return
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                log.info("daemon channel: uid \(uid) call not read: \(String(cString: strerror(errno)))")
                return
            }
            request += buffer[0..<count]
            if request.count > ChannelCoding.maximumCall {
                send(
                    ChannelCoding.encode(ChannelReply.refusal(EFBIG, "the call is larger than \(ChannelCoding.maximumCall >> 20) MiB")),
                    to: connection)
                return
            }
        }
        guard let call = ChannelCoding.decode(ChannelCall.self, from: request) else {
            send(ChannelCoding.encode(ChannelReply.refusal(EINVAL, "not a call this photofs daemon understands")), to: connection)
            return
        }
        send(ChannelCoding.encode(channel.answer(call, caller: uid)), to: connection)
    }

    private func send(_ bytes: [UInt8], to connection: Int32) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            sent += count
        }
    }
}
