import PhotoCore
import Testing

@testable import PickerServer

/// The picker page's door, request by request, without a socket.
@Suite("Picker gate")
struct PickerGateTests {
    let port: UInt16 = 4711

    func request(
        _ path: String, method: String = "GET", host: String = "127.0.0.1:4711", query: [String: String] = [:], cookie: String? = nil,
        headers: [String: String] = [:]
    ) -> HTTPRequest {
        var all = headers
        all["host"] = host
        return HTTPRequest(method: method, path: path, headers: all, query: query, cookies: cookie.map { ["photofs_pick": $0] } ?? [:])
    }

    @Test func theTokenIsSpentOnceForACookie() throws {
        let gate = PickerGate()
        let token = try #require(gate.oneTimeToken)
        #expect(token.count == 64)
        #expect(gate.check(request("/"), port: port)?.status == 403)
        #expect(gate.check(request("/", query: ["token": String(token.reversed())]), port: port)?.status == 403)
        let redirect = try #require(gate.check(request("/", query: ["token": token]), port: port))
        #expect(redirect.status == 303)
        let cookie = try #require(redirect.headers.first { $0.0 == "Set-Cookie" }?.1)
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(gate.oneTimeToken == nil)
        #expect(gate.check(request("/", query: ["token": token]), port: port)?.status == 403)
        #expect(gate.check(request("/api/session", cookie: gate.session), port: port) == nil)
        #expect(gate.check(request("/api/session", cookie: "x" + gate.session.dropFirst()), port: port)?.status == 403)
    }

    @Test func foreignHostsAreRefusedEvenWithTheCookie() {
        let gate = PickerGate()
        for host in ["evil.example:4711", "127.0.0.1:4712", "127.0.0.1", "localhost.evil:4711"] {
            #expect(gate.check(request("/api/session", host: host, cookie: gate.session), port: port)?.status == 403, "\(host)")
        }
        #expect(gate.check(request("/api/session", host: "localhost:4711", cookie: gate.session), port: port) == nil)
    }

    @Test func changesNeedTheCSRFValueAsJSONFromThisOrigin() {
        let gate = PickerGate()
        let good = ["x-photofs-csrf": gate.csrf, "content-type": "application/json", "origin": "http://127.0.0.1:4711"]
        #expect(gate.check(request("/api/add", method: "POST", cookie: gate.session, headers: good), port: port) == nil)
        var missing = good
        missing["x-photofs-csrf"] = nil
        #expect(gate.check(request("/api/add", method: "POST", cookie: gate.session, headers: missing), port: port)?.status == 403)
        var form = good
        form["content-type"] = "application/x-www-form-urlencoded"
        #expect(gate.check(request("/api/add", method: "POST", cookie: gate.session, headers: form), port: port)?.status == 403)
        var foreign = good
        foreign["origin"] = "http://evil.example"
        #expect(gate.check(request("/api/add", method: "POST", cookie: gate.session, headers: foreign), port: port)?.status == 403)
        #expect(gate.check(request("/api/add", method: "DELETE", cookie: gate.session, headers: good), port: port)?.status == 405)
    }

    @Test func embeddedThumbnailsLoseTheirMetadataSegments() throws {
        // SOI, APP1 "Exif" (a location could live there), COM, DQT, SOS + data, EOI.
        let thumbnail: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x08, 0x45, 0x78, 0x69, 0x66, 0, 0, 0xFF, 0xFE, 0x00, 0x04, 0x41, 0x42, 0xFF, 0xDB, 0x00, 0x03,
            0x07, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xD9,
        ]
        let stripped = try #require(EXIFThumbnail.strippedSegments(thumbnail))
        #expect(stripped == [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x03, 0x07, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xD9])
        #expect(EXIFThumbnail.strippedSegments([0x00, 0x01, 0x02, 0x03, 0x04]) == nil)
    }

    @Test(
        arguments: [
            (#"{"ids":["a1","b2"]}"#, PostedBody.Chosen(ids: ["a1", "b2"])),
            (#"{"ids":[]}"#, PostedBody.Chosen(ids: [])),
            (#"{ "confirmation" : "c0ffee", "ids" : ["a1"] }"#, PostedBody.Chosen(ids: ["a1"], confirmation: "c0ffee")),
            // Escapes are JSON's: the id is read whole (and then refused as no asset id).
            (#"{"ids":["a\"1"]}"#, PostedBody.Chosen(ids: ["a\"1"])),
            // A value spelled like the key is no member (a search for the key's text took it).
            (#"{"note":"ids","other":["a1"]}"#, nil),
            (#"{"ids":"a1"}"#, nil),
            (#"{"ids":[1]}"#, nil),
            (#"{"ids":["a1"]"#, nil),
            ("", nil),
        ] as [(String, PostedBody.Chosen?)])
    func postedIdsAreReadStrictly(body: String, expected: PostedBody.Chosen?) {
        #expect(PostedBody.decode(PostedBody.Chosen.self, from: Array(body.utf8)) == expected)
    }

    @Test func answersEscapeStringsForJSONInsideHTML() {
        #expect(JSONText.string("a\"<b>\n\u{1}") == #""a\"\u003cb>\n\u0001""#)
        #expect(JSONText.strings(["x", "\\"]) == #"["x","\\"]"#)
    }
}
