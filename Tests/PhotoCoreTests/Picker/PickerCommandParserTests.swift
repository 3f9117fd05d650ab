import Testing

@testable import PhotoCore

@Suite struct PickerCommandParserTests {
    @Test(arguments: [
        ("app add editor", PickerCommand.appAdd(name: "editor", options: AppOptions())),
        (
            "app add editor --filter 'type:image -has:location' --location strip --limit 50 --uid 1001",
            .appAdd(
                name: "editor",
                options: AppOptions(filter: try! Filter("type:image -has:location"), location: .strip, limit: 50, uid: .uid(1001)))
        ),
        ("app add a.b_c-9 --limit=0 --location=coarse", .appAdd(name: "a.b_c-9", options: AppOptions(location: .coarse, limit: 0))),
        ("app set editor --uid none", .appSet(name: "editor", options: AppOptions(uid: UIDBinding.none))),
        ("app set editor --filter ''", .appSet(name: "editor", options: AppOptions(filter: Filter.everything))),
        ("app set editor --location keep", .appSet(name: "editor", options: AppOptions(location: .keep))),
        ("app remove editor", .appRemove(name: "editor")),
        (
            "select editor IMG_0001.jpg \"Summer 2024/IMG 0002.jpg\" 3f9a1c0d2b7e",
            .select(
                app: "editor",
                targets: [PickerTarget("IMG_0001.jpg"), PickerTarget("Summer 2024/IMG 0002.jpg"), PickerTarget("3f9a1c0d2b7e")])
        ),
        ("select editor -- --odd-name.jpg", .select(app: "editor", targets: [PickerTarget("--odd-name.jpg")])),
        ("select editor -x.jpg", .select(app: "editor", targets: [PickerTarget("-x.jpg")])),
        ("select editor --where 'taken:2024-06 make:canon'", .selectWhere(app: "editor", filter: try! Filter("taken:2024-06 make:canon"))),
        ("select editor --where=type:video", .selectWhere(app: "editor", filter: try! Filter("type:video"))),
        ("deselect editor IMG_0001.jpg x", .deselect(app: "editor", targets: [PickerTarget("IMG_0001.jpg"), PickerTarget("x")])),
        ("clear editor", .clear(app: "editor")),
    ])
    func parsesEveryCommand(text: String, expected: PickerCommand) throws {
        let statements = try PickerCommandParser.parse(text)
        #expect(statements == [PickerStatement(expected, line: 1)])
    }

    @Test func statementsCarryTheirLine() throws {
        let statements = try PickerCommandParser.parse("# header\n\napp add a\nselect a \\\n x\nclear a\n")
        #expect(statements.map(\.line) == [3, 4, 6])
        #expect(statements[1].command == .select(app: "a", targets: [PickerTarget("x")]))
    }

    @Test func targetsKeepNonUTF8Bytes() throws {
        let statements = try PickerCommandParser.parse(Array("select a ".utf8) + [0xC3, 0x28])
        #expect(statements.first?.command == .select(app: "a", targets: [PickerTarget(bytes: [0xC3, 0x28])]))
    }

    /// Every malformed command: the error, its errno family and the exact reason text.
    @Test(arguments: [
        (
            "frobnicate x", PickerError.unknownCommand("frobnicate", line: 1),
            "line 1: unknown command 'frobnicate'; use app, select, deselect, clear or once"
        ),
        ("app", .missingArgument("app command (add, set or remove)", line: 1), "line 1: missing app command (add, set or remove)"),
        (
            "app rename a b", .unknownAppCommand("rename", line: 1),
            "line 1: unknown app command 'rename'; use app add, app set or app remove"
        ),
        ("app add", .missingArgument("app name", line: 1), "line 1: missing app name"),
        (
            "\napp add .hidden", .invalidAppName(".hidden", line: 2),
            "line 2: invalid app name '.hidden'; use 1 to 64 of A-Z a-z 0-9 . _ -, not starting with . or -"
        ),
        (
            "app add ..", .invalidAppName("..", line: 1),
            "line 1: invalid app name '..'; use 1 to 64 of A-Z a-z 0-9 . _ -, not starting with . or -"
        ),
        (
            "app add 'a b'", .invalidAppName("a b", line: 1),
            "line 1: invalid app name 'a b'; use 1 to 64 of A-Z a-z 0-9 . _ -, not starting with . or -"
        ),
        (
            "app add a/b", .invalidAppName("a/b", line: 1),
            "line 1: invalid app name 'a/b'; use 1 to 64 of A-Z a-z 0-9 . _ -, not starting with . or -"
        ),
        (
            "app add ''", .invalidAppName("", line: 1),
            "line 1: invalid app name ''; use 1 to 64 of A-Z a-z 0-9 . _ -, not starting with . or -"
        ),
        (
            "select --where type:image", .invalidAppName("--where", line: 1),
            "line 1: invalid app name '--where'; use 1 to 64 of A-Z a-z 0-9 . _ -, not starting with . or -"
        ),
        (
            "app add a --colour red", .unknownOption("--colour", line: 1),
            "line 1: unknown option '--colour'; app add/set take --filter, --location, --limit, --uid, --grants-expire; select takes --where, --rule, --for, --until, --once; deselect takes --rule"
        ),
        (
            "app add a --where x", .unknownOption("--where", line: 1),
            "line 1: unknown option '--where'; app add/set take --filter, --location, --limit, --uid, --grants-expire; select takes --where, --rule, --for, --until, --once; deselect takes --rule"
        ),
        ("app add a extra", .unexpectedArgument("extra", line: 1), "line 1: unexpected argument 'extra'"),
        ("app add a --limit", .missingOptionValue("--limit", line: 1), "line 1: option --limit needs a value"),
        ("app add a --limit 5 --limit 6", .repeatedOption("--limit", line: 1), "line 1: option --limit is given twice"),
        (
            "app add a --limit ten", .badOptionValue(option: "--limit", value: "ten", line: 1),
            "line 1: bad value 'ten' for --limit; expected a whole number from 0 (no limit) to 1000000000"
        ),
        (
            "app add a --limit -1", .badOptionValue(option: "--limit", value: "-1", line: 1),
            "line 1: bad value '-1' for --limit; expected a whole number from 0 (no limit) to 1000000000"
        ),
        (
            "app add a --location hidden", .badOptionValue(option: "--location", value: "hidden", line: 1),
            "line 1: bad value 'hidden' for --location; expected strip, coarse or keep"
        ),
        (
            "app add a --uid 0", .badOptionValue(option: "--uid", value: "0", line: 1),
            "line 1: bad value '0' for --uid; expected a Unix uid from 1 to 4294967294, or none"
        ),
        (
            "app add a --uid 4294967296", .badOptionValue(option: "--uid", value: "4294967296", line: 1),
            "line 1: bad value '4294967296' for --uid; expected a Unix uid from 1 to 4294967294, or none"
        ),
        (
            "app add a --filter 'colour:red'", .invalidFilter(.unknownKey("colour", at: 0), line: 1),
            "line 1: invalid filter: unknown filter key 'colour' at column 1: use one of type, taken, make, model, camera, lens, has, orientation, width, height, megapixels, ext, mime, size, folder, name"
        ),
        ("app remove a b", .unexpectedArgument("b", line: 1), "line 1: unexpected argument 'b'"),
        ("select a", .missingArgument("target (an asset id or a path)", line: 1), "line 1: missing target (an asset id or a path)"),
        ("select a --", .missingArgument("target (an asset id or a path)", line: 1), "line 1: missing target (an asset id or a path)"),
        (
            "select a --wher x", .unknownOption("--wher", line: 1),
            "line 1: unknown option '--wher'; app add/set take --filter, --location, --limit, --uid, --grants-expire; select takes --where, --rule, --for, --until, --once; deselect takes --rule"
        ),
        ("select a --where", .missingOptionValue("--where", line: 1), "line 1: option --where needs a value"),
        ("select a --where type:image more", .unexpectedArgument("more", line: 1), "line 1: unexpected argument 'more'"),
        (
            "select a --where 'type:photo'", .invalidFilter(.badValue(key: .type, value: "photo", at: 5, expected: .mediaType), line: 1),
            "line 1: invalid filter: bad value 'photo' for type: at column 6: expected image, video, live, screenshot or panorama"
        ),
        (
            "deselect a --where type:image", .unknownOption("--where", line: 1),
            "line 1: unknown option '--where'; app add/set take --filter, --location, --limit, --uid, --grants-expire; select takes --where, --rule, --for, --until, --once; deselect takes --rule"
        ),
        ("clear", .missingArgument("app name", line: 1), "line 1: missing app name"),
        ("clear a b", .unexpectedArgument("b", line: 1), "line 1: unexpected argument 'b'"),
        ("clear a 'b\nc'", .unexpectedArgument("b\nc", line: 1), "line 1: unexpected argument 'b\\x0ac'"),
        (
            "select a 'x", .unterminatedQuote(line: 1, column: 10),
            "line 1: quote opened at column 10 is never closed; add the matching quote"
        ),
        ("clear a\\", .danglingBackslash(line: 1, column: 8), "line 1: backslash at column 8 ends the input; remove it or quote the text"),
    ])
    func malformedCommandsAreInvalid(text: String, expected: PickerError, reason: String) {
        #expect(throws: expected) { try PickerCommandParser.parse(text) }
        #expect(expected.errnoKind == .invalid)
        #expect(expected.reason == reason)
    }

    @Test func nonUTF8AppNameIsInvalid() {
        #expect(throws: PickerError.notUTF8(line: 1)) { try PickerCommandParser.parse(Array("clear ".utf8) + [0xFF]) }
        #expect(PickerError.notUTF8(line: 1).reason == "line 1: command words, app names and filters must be UTF-8 text")
    }

    @Test func sixtyFourCharactersIsTheLongestName() throws {
        let longest = String(repeating: "a", count: 64)
        #expect(try PickerCommandParser.parse("clear \(longest)").first?.command == .clear(app: longest))
        #expect(throws: PickerError.invalidAppName(longest + "a", line: 1)) { try PickerCommandParser.parse("clear \(longest)a") }
    }
}
