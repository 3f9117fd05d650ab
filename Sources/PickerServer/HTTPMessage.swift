/// One HTTP request as the picker's routes see it: only the parts they use.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query.
    public var path: String
    /// Headers by lower-cased name (only those `HTTPServer.headerNames` lists).
    public var headers: [String: String] = [:]
    /// Query arguments by name (only `HTTPServer.queryNames`).
    public var query: [String: String] = [:]
    /// Cookies by name (only `HTTPServer.cookieNames`).
    public var cookies: [String: String] = [:]
    public var body: [UInt8] = []
}

/// One HTTP response.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, type: String, text: String) {
        self.init(status: status, headers: [("Content-Type", type)], body: Array(text.utf8))
    }
}
