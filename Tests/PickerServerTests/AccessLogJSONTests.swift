import PhotoCore
import Testing

@testable import PickerServer

@Suite("access log JSON and the report page's request bodies")
struct AccessLogJSONTests {
    @Test func entriesAreEncodedWithTheirPathOrNull() {
        let second: Int64 = 1_000_000_000
        let start = (20_788 * 86_400 + 18 * 3600) * second
        let entries = [
            AccessLogEntry(
                app: "edi\"tor", asset: AssetID("00000000000a")!, day: 20_788, firstReadNanoseconds: start,
                lastReadNanoseconds: start + 61 * second,
                reads: 3),
            AccessLogEntry(
                app: "viewer", asset: AssetID("00000000000b")!, day: 20_787, firstReadNanoseconds: start - 86_400 * second,
                lastReadNanoseconds: start - 86_400 * second, reads: 1),
        ]
        let json = AccessLogJSON.encode(entries, paths: [AssetID("00000000000a")!: "Trips/<b>.jpg"])
        #expect(
            json == #"[{"app":"edi\"tor","asset":"00000000000a","path":"Trips/\u003cb>.jpg","day":"2026-12-01","#
                + #""first_read":"2026-12-01T18:00:00Z","last_read":"2026-12-01T18:01:01Z","reads":3},"#
                + #"{"app":"viewer","asset":"00000000000b","path":null,"day":"2026-11-30","#
                + #""first_read":"2026-11-30T18:00:00Z","last_read":"2026-11-30T18:00:00Z","reads":1}]"#)
        #expect(AccessLogJSON.encode([], paths: [:]) == "[]")
    }

    @Test(
        arguments: [
            (#"{"app":"editor","ids":["00000000000a"]}"#, PostedBody.Revoke(app: "editor", ids: ["00000000000a"])),
            (#"{ "ids": [], "app" : "a b" }"#, PostedBody.Revoke(app: "a b", ids: [])),
            (#"{"app":"x\"y","ids":[]}"#, PostedBody.Revoke(app: "x\"y", ids: [])),
            (#"{"app":3,"ids":[]}"#, nil),
            (#"{"application":"x","ids":[]}"#, nil),
            (#"{"app":"x"}"#, nil),
            (#"{"app":"unterminated}"#, nil),
            ("", nil),
        ] as [(String, PostedBody.Revoke?)])
    func revokeBodies(body: String, expected: PostedBody.Revoke?) {
        #expect(PostedBody.decode(PostedBody.Revoke.self, from: Array(body.utf8)) == expected)
    }
}
