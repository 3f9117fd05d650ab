import CMicroHTTPD
import SystemKit

/// A small HTTP server on 127.0.0.1 (libmicrohttpd, its own threads): every request is
/// handed, with its body read, to one handler. It never listens on another address.
///
/// Other local users cannot starve it: a connection from a socket another uid owns is
/// closed as soon as it is accepted (`LoopbackPeer`), the owner's own connections are at
/// most 64, and an idle or stalled connection is closed after 10 s.
public final class HTTPServer: @unchecked Sendable {
    /// The headers, query arguments and cookies the handler gets (the rest are not read).
    static let headerNames = ["host", "origin", "content-type", "x-photofs-csrf", "sec-fetch-site"]
    static let queryNames = ["token", "q", "id", "ids", "chip"]
    static let cookieNames = ["photofs_pick"]
    /// Request bodies larger than this are refused (413).
    static let maximumBody = 4 << 20

    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private var daemon: OpaquePointer?
    /// The port the kernel chose.
    public private(set) var port: UInt16 = 0

    public init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.handler = handler
    }

    /// Starts listening on 127.0.0.1:`port` (0: any free port); false if it could not.
    public func start(port: UInt16 = 0) -> Bool {
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let daemon = photofs_mhd_start_loopback(port, HTTPServer.access, context, HTTPServer.completed, HTTPServer.admit)
        else { return false }
        self.daemon = daemon
        self.port = photofs_mhd_port(daemon)
        return true
    }

    /// Stops listening and waits for the server's threads.
    public func stop() {
        if let daemon { MHD_stop_daemon(daemon) }
        daemon = nil
    }

    deinit { stop() }

    /// A request's upload, kept between the calls libmicrohttpd makes for it.
    private final class Upload {
        var bytes: [UInt8] = []
        var tooLarge = false
    }

    private static let access: MHD_AccessHandlerCallback = { context, connection, url, method, _, data, size, state in
        guard let context, let connection, let state, let size else { return MHD_Result(rawValue: 0)! }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        if state.pointee == nil {
            // First call: headers only. Keep an upload buffer for the body calls.
            state.pointee = Unmanaged.passRetained(Upload()).toOpaque()
            return MHD_Result(rawValue: 1)!
        }
        let upload = Unmanaged<Upload>.fromOpaque(state.pointee!).takeUnretainedValue()
        if size.pointee > 0 {
            if upload.bytes.count + size.pointee > maximumBody {
                upload.tooLarge = true
            } else if let data {
                upload.bytes += UnsafeRawBufferPointer(start: data, count: size.pointee)
            }
            size.pointee = 0
            return MHD_Result(rawValue: 1)!
        }
        var request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/")
        for name in headerNames {
            if let value = MHD_lookup_connection_value(connection, MHD_ValueKind(rawValue: 1)!, name) {
                request.headers[name] = String(cString: value)
            }
        }
        for name in queryNames {
            if let value = MHD_lookup_connection_value(connection, MHD_ValueKind(rawValue: 8)!, name) {
                request.query[name] = String(cString: value)
            }
        }
        for name in cookieNames {
            if let value = MHD_lookup_connection_value(connection, MHD_ValueKind(rawValue: 2)!, name) {
                request.cookies[name] = String(cString: value)
            }
        }
        request.body = upload.bytes
        let response = upload.tooLarge ? HTTPResponse(status: 413, type: "text/plain", text: "too large\n") : server.handler(request)
        return send(response, on: connection)
    }

    /// Serves a connection only when the process at its other end runs as this server's user.
    private static let admit: MHD_AcceptPolicyCallback = { _, address, length in
        var ip: UInt32 = 0
        var port: UInt16 = 0
        guard photofs_mhd_peer_ipv4(address, length, &ip, &port) != 0 else { return MHD_Result(rawValue: 0)! }
        let owner = LoopbackPeer.owner(address: ip, port: port)
        return MHD_Result(rawValue: owner == CurrentProcess.effectiveUserID ? 1 : 0)!
    }

    private static let completed: MHD_RequestCompletedCallback = { _, _, state, _ in
        guard let state, let upload = state.pointee else { return }
        Unmanaged<Upload>.fromOpaque(upload).release()
        state.pointee = nil
    }

    private static func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode(rawValue: 2)!)
        }
        guard let made else { return MHD_Result(rawValue: 0)! }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
}
