import Synchronization
import SystemKit

/// The picker page's door: only the person who was given the URL gets in.
///
/// - The URL carries a one-time random token; the first request with it is answered with a
///   redirect that sets an HttpOnly, SameSite=Strict session cookie, and the token is spent.
///   The URL never goes into a process's arguments or environment (the command opens the
///   browser on a private redirect file), so no other local user can read it in `/proc`.
/// - Every request must name this server in its Host header (`127.0.0.1:PORT` or
///   `localhost:PORT`), so a DNS-rebinding page on another name is refused.
/// - Every change (POST) must carry the CSRF value the page read from `/api/session`, as
///   JSON, from this origin.
/// - Every response forbids everything but the page's own resources (Content-Security-Policy).
public final class PickerGate: Sendable {
    private let token: Mutex<String?>
    /// Run once when the token is spent (the command removes the redirect file it wrote).
    private let onSpent = Mutex<(@Sendable () -> Void)?>(nil)
    let session: String
    let csrf: String
    /// The command that printed the link, named in refusals (`photofs pick`, `photofs report`).
    let command: String

    public init(command: String = "photofs pick") {
        self.command = command
        self.token = Mutex(Self.randomHex(32))
        self.session = Self.randomHex(32)
        self.csrf = Self.randomHex(32)
    }

    /// The one-time token for the URL (nil once spent).
    public var oneTimeToken: String? { token.withLock { $0 } }

    /// Runs `action` when the token is spent.
    public func whenSpent(_ action: @escaping @Sendable () -> Void) {
        onSpent.withLock { $0 = action }
    }

    /// Headers every response carries.
    static let securityHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
                + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
    ]

    /// A page's answer to `request`: the gate's refusal, or what `route` answers; either
    /// way with the security headers (a response that sets its own caching keeps it).
    func answer(_ request: HTTPRequest, port: UInt16, route: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        var response = check(request, port: port) ?? route(request)
        let cacheable = response.headers.contains { $0.0 == "Cache-Control" }
        response.headers += Self.securityHeaders.filter { !(cacheable && $0.0 == "Cache-Control") }
        return response
    }

    /// Nil when the request may go on to the routes; otherwise the response to send instead.
    public func check(_ request: HTTPRequest, port: UInt16) -> HTTPResponse? {
        let hosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host = request.headers["host"]?.lowercased(), hosts.contains(host) else { return Self.forbidden("unknown host") }
        guard request.method == "GET" || request.method == "POST" else {
            return HTTPResponse(status: 405, type: "text/plain", text: "method not allowed\n")
        }
        if request.path == "/", let offered = request.query["token"] {
            let accepted = token.withLock { (token: inout String?) -> Bool in
                guard let expected = token, Self.equal(expected, offered) else { return false }
                token = nil
                return true
            }
            guard accepted else { return Self.forbidden("this link was already used or is wrong; run \(command) again") }
            onSpent.withLock { action in
                action?()
                action = nil
            }
            return HTTPResponse(
                status: 303,
                headers: [("Location", "/"), ("Set-Cookie", "photofs_pick=\(session); HttpOnly; SameSite=Strict; Path=/")])
        }
        guard let cookie = request.cookies["photofs_pick"], Self.equal(cookie, session) else {
            return Self.forbidden("open the link \(command) printed")
        }
        if request.method == "POST" {
            guard let offered = request.headers["x-photofs-csrf"], Self.equal(offered, csrf),
                request.headers["content-type"]?.hasPrefix("application/json") == true,
                request.headers["origin"].map({ $0 == "http://" + host }) ?? true,
                request.headers["sec-fetch-site"].map({ $0 == "same-origin" }) ?? true
            else { return Self.forbidden("cross-site request refused") }
        }
        return nil
    }

    static func forbidden(_ why: String) -> HTTPResponse {
        HTTPResponse(status: 403, type: "text/plain; charset=utf-8", text: "403 forbidden: \(why)\n")
    }

    /// Compares without stopping at the first difference.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<x.count { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    /// `count` random bytes from the kernel, as hex.
    public static func randomHex(_ count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        guard let fd = try? FileDescriptor.open("/dev/urandom", .readOnly) else { preconditionFailure("no /dev/urandom") }
        defer { fd.close() }
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { try? fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            guard let got, got > 0 else { preconditionFailure("cannot read /dev/urandom") }
            filled += got
        }
        return bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
