import Testing

@testable import PhotoCore

/// Parser errors, each with its exact (0-based, in characters) position.
@Suite struct FilterParserTests {
    @Test(arguments: [
        ("colour:red", FilterError.unknownKey("colour", at: 0)),
        ("type:image  colour:red", .unknownKey("colour", at: 12)),
        ("model:é colour:x", .unknownKey("colour", at: 8)),
        ("model:\"EOS 40D\" Colour:x", .unknownKey("Colour", at: 16)),
        ("type:image foo", .missingKey("foo", at: 11)),
        ("'OR'", .missingKey("OR", at: 0)),
        ("type:", .emptyValue(key: .type, at: 5)),
        ("name:\"\"", .emptyValue(key: .name, at: 5)),
        ("type:photo", .badValue(key: .type, value: "photo", at: 5, expected: .mediaType)),
        ("model:\"EOS 40D", .unterminatedQuote(at: 6)),
        ("type:image name:'abc", .unterminatedQuote(at: 16)),
        ("(type:image", .unclosedParenthesis(at: 0)),
        ("type:image (", .unclosedParenthesis(at: 11)),
        ("((type:image)", .unclosedParenthesis(at: 0)),
        ("type:image)", .unmatchedClosingParenthesis(at: 10)),
        (")", .unmatchedClosingParenthesis(at: 0)),
        ("()", .emptyParentheses(at: 0)),
        ("type:image -", .emptyNegation(at: 11)),
        ("NOT", .emptyNegation(at: 0)),
        ("(NOT) type:image", .emptyNegation(at: 1)),
        ("NOT OR type:image", .emptyNegation(at: 0)),
        ("type:image OR", .missingOperand("OR", at: 11)),
        ("OR type:image", .missingOperand("OR", at: 0)),
        ("type:image OR OR type:video", .missingOperand("OR", at: 11)),
        ("(type:image OR )", .missingOperand("OR", at: 12)),
        ("AND type:image", .missingOperand("AND", at: 0)),
        ("type:image AND", .missingOperand("AND", at: 11)),
        ("taken:2024-13", .badValue(key: .taken, value: "2024-13", at: 6, expected: .date)),
        ("taken:2023-02-29", .badValue(key: .taken, value: "2023-02-29", at: 6, expected: .date)),
        ("taken:2024..2024-02-30", .badValue(key: .taken, value: "2024-02-30", at: 12, expected: .date)),
        ("taken:2024..2023", .badValue(key: .taken, value: "2024..2023", at: 6, expected: .ascendingRange)),
        ("taken:..", .badValue(key: .taken, value: "..", at: 6, expected: .date)),
        ("taken:24", .badValue(key: .taken, value: "24", at: 6, expected: .date)),
        ("width:>=abc", .badValue(key: .width, value: "abc", at: 8, expected: .number)),
        ("height:-5", .badValue(key: .height, value: "-5", at: 7, expected: .number)),
        ("width:5000..4000", .badValue(key: .width, value: "5000..4000", at: 6, expected: .ascendingRange)),
        ("size:10XB", .badValue(key: .size, value: "10XB", at: 5, expected: .size)),
        ("size:>99999999999TB", .badValue(key: .size, value: "99999999999TB", at: 6, expected: .size)),
        ("megapixels:1.2345678", .badValue(key: .megapixels, value: "1.2345678", at: 11, expected: .decimal)),
        ("orientation:9", .badValue(key: .orientation, value: "9", at: 12, expected: .orientation)),
        ("has:gps", .badValue(key: .has, value: "gps", at: 4, expected: .hasProperty)),
        ("name:[abc", .badValue(key: .name, value: "[abc", at: 5, expected: .glob)),
        ("folder:../x", .badValue(key: .folder, value: "../x", at: 7, expected: .folder)),
        ("mime:jpeg", .badValue(key: .mime, value: "jpeg", at: 5, expected: .mime)),
        ("ext:tar.gz", .badValue(key: .ext, value: "tar.gz", at: 4, expected: .text)),
    ])
    func errorsNameThePosition(filter: String, expected: FilterError) {
        #expect(throws: expected) { try FilterParser.parse(filter) }
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let depth = FilterParser.maximumDepth
        let ok = String(repeating: "(", count: depth) + "type:image" + String(repeating: ")", count: depth)
        #expect(try FilterParser.parse(ok) == .term(.type(.image)))
        let tooDeep = String(repeating: "(", count: 100_000) + "type:image"
        #expect(throws: FilterError.nestedTooDeeply(at: depth)) { try FilterParser.parse(tooDeep) }
        let negations = String(repeating: "-", count: 100_000) + "type:image"
        #expect(throws: FilterError.nestedTooDeeply(at: depth)) { try FilterParser.parse(negations) }
        #expect(throws: FilterError.nestedTooDeeply(at: depth * 4)) {
            try FilterParser.parse(String(repeating: "NOT ", count: 100_000) + "type:image")
        }
    }

    @Test func lowerCaseKeywordsGetAHint() {
        #expect(throws: FilterError.missingKey("or", at: 11)) { try FilterParser.parse("type:image or type:video") }
        #expect(FilterError.missingKey("or", at: 11).description.contains("upper case"))
    }

    @Test func pointerMarksThePosition() {
        #expect(FilterError.unknownKey("colour", at: 11).pointer(in: "type:image colour:red") == "type:image colour:red\n           ^")
    }

    @Test func descriptionNamesColumnAndFix() {
        let error = FilterError.unknownKey("colour", at: 12)
        #expect(error.description.contains("column 13"))
        #expect(error.description.contains("colour"))
        #expect(error.description.contains("type, taken, make"))
        let bad = FilterError.badValue(key: .size, value: "10XB", at: 5, expected: .size)
        #expect(bad.description.contains("column 6"))
        #expect(bad.description.contains("KiB"))
        // User text never breaks the one-line message.
        #expect(!FilterError.missingKey("a\nb", at: 0).description.contains("\n"))
    }

    @Test(arguments: [
        ("type:image -has:location", FilterExpression.and([.term(.type(.image)), .not(.term(.has(.location)))])),
        ("make:Canon OR lens:x", .or([.term(.make("canon")), .term(.lens("x"))])),
        ("taken:2024-06..2024-08-31", .term(.taken(.between(DatePeriod(year: 2024, month: 6), DatePeriod(year: 2024, month: 8, day: 31))))),
        ("size:>10MB", .term(.size(.greater(10_000_000)))),
        ("name:IMG_(1).jpg", .term(.name(try! Glob("IMG_(1).jpg")))),
        ("(name:a(b))", .term(.name(try! Glob("a(b)")))),
        ("NOT(type:video)", .not(.term(.type(.video)))),
        ("size:1.5KiB", .term(.size(.equal(1536)))),
        ("size:2GiB", .term(.size(.equal(2_147_483_648)))),
        ("megapixels:>=12.5", .term(.megapixels(.greaterOrEqual(Decimal1e6(micros: 12_500_000, decimals: 1))))),
        ("width:..100", .term(.width(.between(nil, 100)))),
        ("folder:Trips//2024/", .term(.folder([Array("Trips".utf8), Array("2024".utf8)]))),
        ("NOT (type:live OR type:video)", .not(.or([.term(.type(.live)), .term(.type(.video))]))),
        ("type:image has:exif OR type:video", .or([.and([.term(.type(.image)), .term(.has(.exif))]), .term(.type(.video))])),
    ])
    func parsesIntoTheExpectedTree(filter: String, expected: FilterExpression) throws {
        #expect(try FilterParser.parse(filter) == expected)
    }
}
