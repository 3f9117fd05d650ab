import Glibc
import MediaFormats
import PhotoCore

/// The backend's way to the daemon of a mount: submit a pick request on an app's behalf,
/// wait for its answer, cancel it. Runs as the owner, through the files the owner's tools
/// use: the app is created (location strip) through the picker socket or `.picker` when the
/// mount has no such app, the request is written to and read back from the app's
/// `.request` (the read blocks until the person answers), a cancel goes to `.requests`.
/// Every call blocks; none runs on the bus loop.
struct DaemonPicks: Sendable {
    /// The environment (where the picker socket is).
    let environment: [String: String]

    /// A request the daemon recorded.
    struct Submitted: Sendable {
        let id: Int
        /// Whether the app was made for this request (it did not exist).
        let createdApp: Bool
    }

    /// Why a request could not be made or waited for.
    enum Failure: Error, Sendable, CustomStringConvertible {
        case appNotCreated(String)
        case refused(Int32)
        case unreadable(Int32)

        var description: String {
            switch self {
            case .appNotCreated(let reason): "the app could not be created: \(reason)"
            case .refused(let code): "the daemon refused the request: \(String(cString: strerror(code)))"
            case .unreadable(let code): "the answer could not be read: \(String(cString: strerror(code)))"
            }
        }
    }

    func submit(app: String, request: PickRequest, title: String, mountpoint: String) throws(Failure) -> Submitted {
        let directory = mountpoint + "/apps/" + app
        var status = stat()
        var created = false
        if stat(directory, &status) != 0 {
            try createApp(app, mountpoint: mountpoint)
            created = true
        }
        let fd = open(directory + "/.request", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .refused(errno) }
        defer { close(fd) }
        let bytes = Array((request.description + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw .refused(written < 0 ? errno : EIO) }
        // One request per app may be pending, so the app names it.
        guard let pending = PendingRequest.list(mountpoint: mountpoint).first(where: { $0.app == app }) else { throw .refused(ENOENT) }
        return Submitted(id: pending.id, createdApp: created)
    }

    /// Blocks until the request of `app` is answered; what the answer was.
    func wait(app: String, id: Int, mountpoint: String) throws(Failure) -> PickAnswer {
        let fd = open(mountpoint + "/apps/" + app + "/.request", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw .unreadable(errno) }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return try Self.parse(bytes)
    }

    /// Cancels the request (the person closed the dialog); a request already settled stays so.
    func cancel(app: String, id: Int, mountpoint: String) {
        _ = PendingRequest.answer("cancel \(app) \(id)", mountpoint: mountpoint)
    }

    private func createApp(_ app: String, mountpoint: String) throws(Failure) {
        let command = PickerCommand.appAdd(name: app, options: AppOptions(location: .strip)).serialized + [UInt8(ascii: "\n")]
        switch PickerSocketClient.send(command, mountpoint: Array(mountpoint.utf8), environment: environment) {
        case .answered(let code, _) where code == 0 || code == EEXIST: return
        case .answered(_, let reason): throw .appNotCreated(reason)
        case .failed(let why): throw .appNotCreated(why)
        case .unavailable:
            let fd = open(mountpoint + "/.picker", O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .appNotCreated(String(cString: strerror(errno))) }
            defer { close(fd) }
            let written = command.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == command.count else { throw .appNotCreated(String(cString: strerror(written < 0 ? errno : EIO))) }
        }
    }

    /// `selected N` and N names (`\\` and `\n` escaped), `cancelled` or `expired`.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> PickAnswer {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        guard let first = lines.first else { throw .unreadable(EIO) }
        switch String(decoding: first, as: UTF8.self) {
        case "cancelled": return .cancelled
        case "expired": return .expired
        case let status where status.hasPrefix("selected "):
            guard let count = Int(status.dropFirst(9)), lines.count > count else { throw .unreadable(EIO) }
            return .selected(lines[1...count].map(unescape))
        default: throw .unreadable(EIO)
        }
    }

    private static func unescape(_ line: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < line.count {
            if line[index] == UInt8(ascii: "\\"), index + 1 < line.count {
                out.append(line[index + 1] == UInt8(ascii: "n") ? UInt8(ascii: "\n") : line[index + 1])
                index += 2
            } else {
                out.append(line[index])
                index += 1
            }
        }
        return out
    }
}
