import Testing

@testable import PhotoCore

@Suite struct PickerTokenizerTests {
    @Test(arguments: [
        ("select a b", [["select", "a", "b"]]),
        ("  select\ta   b  ", [["select", "a", "b"]]),
        ("select a 'x y'", [["select", "a", "x y"]]),
        (#"select a "x \"y\" \\ \$ \` \n""#, [["select", "a", #"x "y" \ $ ` \n"#]]),
        (#"select a x\ y"#, [["select", "a", "x y"]]),
        (#"select a \'x"#, [["select", "a", "'x"]]),
        ("a b # comment 'unclosed\nc d", [["a", "b"], ["c", "d"]]),
        ("# whole line\na", [["a"]]),
        ("a b#c", [["a", "b#c"]]),
        ("a '#x' \"#y\"", [["a", "#x", "#y"]]),
        ("a '' \"\"", [["a", "", ""]]),
        (#"a 'it'\''s'"#, [["a", "it's"]]),
        ("a \\\nb", [["a", "b"]]),
        ("a x\\\ny", [["a", "xy"]]),
        ("a \"x\\\ny\"", [["a", "xy"]]),
        ("a 'x\ny'", [["a", "x\ny"]]),
        ("a \"x\ny\"", [["a", "x\ny"]]),
        ("\n\n  \n# only\n", []),
        ("a\r\nb\r\n", [["a"], ["b"]]),
        ("a pre'mid'\"post\"", [["a", "premidpost"]]),
        (#"a "back\slash""#, [["a", #"back\slash"#]]),
        ("", []),
    ])
    func splitsCommandsAndWords(input: String, expected: [[String]]) throws {
        let commands = try PickerTokenizer.commands(Array(input.utf8))
        #expect(commands.map { $0.map { String(decoding: $0.bytes, as: UTF8.self) } } == expected)
    }

    @Test func keepsNonUTF8Bytes() throws {
        let input: [UInt8] = Array("select a ".utf8) + [0xFF, 0xFE, 0x01] + Array(" 'x".utf8) + [0x80] + Array("'".utf8)
        let commands = try PickerTokenizer.commands(input)
        #expect(commands.count == 1)
        #expect(commands[0].map(\.bytes) == [Array("select".utf8), [0x61], [0xFF, 0xFE, 0x01], [0x78, 0x80]])
    }

    @Test func wordsKnowLineAndColumn() throws {
        let commands = try PickerTokenizer.commands(Array("select  ed\n  clear 'x\ny' z".utf8))
        #expect(commands.count == 2)
        #expect(commands[0].map { [$0.line, $0.column] } == [[1, 1], [1, 9]])
        #expect(commands[1].map { [$0.line, $0.column] } == [[2, 3], [2, 9], [3, 4]])
    }

    @Test(arguments: [
        ("a 'b", PickerError.unterminatedQuote(line: 1, column: 3)),
        ("select a\n  clear \"b", .unterminatedQuote(line: 2, column: 9)),
        ("a 'x\ny' \"z", .unterminatedQuote(line: 2, column: 4)),
        ("a \\", .danglingBackslash(line: 1, column: 3)),
        ("a\nbc\\", .danglingBackslash(line: 2, column: 3)),
    ])
    func syntaxErrorsHaveLineAndColumn(input: String, expected: PickerError) {
        #expect(throws: expected) { try PickerTokenizer.commands(Array(input.utf8)) }
        #expect(expected.errnoKind == .invalid)
    }
}
