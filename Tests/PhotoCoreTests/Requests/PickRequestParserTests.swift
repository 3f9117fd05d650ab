import PhotoCore
import Testing

@Suite("Pick request language")
struct PickRequestParserTests {
    @Test func defaultsWhenEmpty() throws {
        #expect(try PickRequestParser.parse("") == PickRequest())
        #expect(try PickRequestParser.parse("\n") == PickRequest())
    }

    @Test func everyKey() throws {
        let request = try PickRequestParser.parse("media=any(image,video) limit=3 ordered=no mode=replace timeout=30")
        #expect(request.media == .any([.kind(.image), .kind(.video)]))
        #expect(request.limit == 3)
        #expect(request.ordered == false)
        #expect(request.mode == .replace)
        #expect(request.timeoutSeconds == 30)
    }

    @Test func separatorsAndFlags() throws {
        let request = try PickRequestParser.parse("media=images;limit=1\nordered")
        #expect(request.media == .kind(.image))
        #expect(request.limit == 1)
        #expect(request.ordered)
    }

    @Test func nestedMediaRoundTrips() throws {
        let text = "media=all(any(image,live),not(screenshot)) limit=5 ordered=yes mode=add timeout=600"
        let request = try PickRequestParser.parse(text)
        #expect(request.media == .all([.any([.kind(.image), .kind(.live)]), .not(.kind(.screenshot))]))
        #expect(request.description == text)
        #expect(try PickRequestParser.parse(request.description) == request)
    }

    @Test(arguments: [
        ("colour=red", PickRequestError.unknownKey("colour", at: 0)),
        ("limit=3 limit=4", .repeatedKey("limit", at: 8)),
        ("limit=-1", .badValue(key: "limit", value: "-1", at: 6, expected: "a whole number from 0 to 100000")),
        ("mode=merge", .badValue(key: "mode", value: "merge", at: 5, expected: "add or replace")),
        ("timeout=0", .badValue(key: "timeout", value: "0", at: 8, expected: "seconds from 1 to 3600")),
        ("limit=2 media=gif", .unknownMedia("gif", at: 14)),
        ("media=any(image", .malformedMedia(at: 15)),
        ("media=not(image,video)", .malformedMedia(at: 6)),
        ("media=any(image,)", .malformedMedia(at: 16)),
        ("media=blend(image)", .unknownMedia("blend", at: 6)),
        ("ordered=maybe", .badValue(key: "ordered", value: "maybe", at: 8, expected: "yes or no")),
    ])
    func errorsHaveTheirColumns(text: String, error: PickRequestError) {
        #expect(throws: error) { try PickRequestParser.parse(text) }
    }

    @Test func notUTF8OrTooLongIsUnreadable() {
        #expect(throws: PickRequestError.unreadable) { try PickRequestParser.parse([0xff, 0xfe]) }
        #expect(throws: PickRequestError.unreadable) { try PickRequestParser.parse([UInt8](repeating: 0x20, count: 5000)) }
    }

    @Test func errorDescriptionNamesTheColumn() {
        #expect(PickRequestError.unknownMedia("gif", at: 14).description.contains("column 15"))
    }
}
