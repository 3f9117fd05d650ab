import Testing

@testable import PhotoCore

@Suite struct PickerCommandTextTests {
    static let weird: [UInt8] = Array("it's a\n".utf8) + [0xFF, 0x00] + Array("#x \"y\" \\z".utf8)

    @Test(arguments: [
        PickerCommand.appAdd(name: "ed", options: AppOptions()),
        .appAdd(
            name: "ed", options: AppOptions(filter: try! Filter("model:\"it's\" -has:location"), location: .keep, limit: 7, uid: .uid(1001))
        ),
        .appSet(name: "ed", options: AppOptions(filter: .everything, uid: UIDBinding.none)),
        .appRemove(name: "ed"),
        .select(app: "ed", targets: [PickerTarget("a b.jpg"), PickerTarget("--x"), PickerTarget("#y"), PickerTarget(bytes: weird)]),
        .selectWhere(app: "ed", filter: try! Filter("taken:2024 OR (type:video)")),
        .deselect(app: "ed", targets: [PickerTarget(""), PickerTarget("3f9a1c0d2b7e")]),
        .clear(app: "ed"),
    ])
    func serializedCommandsParseBack(command: PickerCommand) throws {
        let statements = try PickerCommandParser.parse(command.serialized)
        #expect(statements.map(\.command) == [command])
    }

    @Test func argumentsAreWordsWithoutQuoting() throws {
        let command = try PickerCommandParser.command(arguments: [Array("select".utf8), Array("ed".utf8), Self.weird])
        #expect(command == .select(app: "ed", targets: [PickerTarget(bytes: Self.weird)]))
        #expect(throws: PickerError.unknownApp("ed", line: 0)) {
            try PickerExecutor.apply([command], to: AccessState(), assets: AssetIndex([]), now: 1)
        }
        #expect(PickerError.unknownApp("ed", line: 0).reason == "no app named 'ed'; create it with: app add ed")
    }

    @Test func appSetNeedsAnOption() {
        let missing = "option to change (--filter, --location, --limit, --uid, --grants-expire, --representation, --quality or --metadata)"
        #expect(throws: PickerError.missingArgument(missing, line: 1)) {
            try PickerCommandParser.parse("app set ed")
        }
    }
}
