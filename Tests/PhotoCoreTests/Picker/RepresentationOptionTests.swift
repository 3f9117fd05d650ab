import Testing

@testable import PhotoCore

@Suite struct RepresentationOptionTests {
    @Test(arguments: [
        ("app add web --representation compatible", AppOptions(representation: .compatible)),
        ("app add web --representation=original --quality 0.9", AppOptions(representation: .original, quality: 90)),
        ("app add web --quality=75 --representation compatible", AppOptions(representation: .compatible, quality: 75)),
        ("app add web --quality 1.0", AppOptions(quality: 100)),
    ])
    func appOptionsParse(text: String, options: AppOptions) throws {
        #expect(try PickerCommandParser.parse(text) == [PickerStatement(.appAdd(name: "web", options: options), line: 1)])
    }

    @Test(arguments: [
        ("app add web --representation jpeg", "--representation", "jpeg"),
        ("app add web --quality 0", "--quality", "0"),
        ("app add web --quality 1.5", "--quality", "1.5"),
        ("app add web --quality 101", "--quality", "101"),
        ("app add web --quality -0.5", "--quality", "-0.5"),
        ("app set web --quality 0.8e0", "--quality", "0.8e0"),
    ])
    func badValuesNameTheOptionAndLine(text: String, option: String, value: String) {
        #expect(throws: PickerError.badOptionValue(option: option, value: value, line: 1)) { try PickerCommandParser.parse(text) }
    }

    @Test func setNeedsAnOptionAndNamesTheNewOnes() {
        #expect(throws: PickerError.self) { try PickerCommandParser.parse("app set web") }
        do {
            _ = try PickerCommandParser.parse("app set web")
        } catch {
            #expect("\(error)".contains("--representation"))
        }
    }

    @Test(arguments: [("0.8", 80), ("1.0", 100), ("0.01", 1), ("0.85", 85), ("75", 75), ("1", 1), ("100", 100)])
    func qualityParses(_ text: String, _ value: Int) { #expect(JPEGQualityText.parse(text) == value) }

    @Test(arguments: ["0", "0.0", "1.5", "101", "-3", "high", "", "1e2", "0x10", " 80"])
    func badQualityIsRefused(_ text: String) { #expect(JPEGQualityText.parse(text) == nil) }

    @Test(arguments: [1, 5, 10, 50, 75, 80, 85, 99, 100])
    func qualityTextReadsBack(_ quality: Int) { #expect(JPEGQualityText.parse(JPEGQualityText.text(quality)) == quality) }

    @Test func addAndSetChangeOnlyWhatIsGiven() throws {
        var (state, _) = try PickerExecutor.apply(
            try PickerCommandParser.parse("app add web --location keep"), to: AccessState(), assets: AssetIndex([]), now: 1)
        #expect(state.apps["web"]?.representation == .original)
        #expect(state.apps["web"]?.quality == 80)
        (state, _) = try PickerExecutor.apply(
            try PickerCommandParser.parse("app set web --representation compatible"), to: state, assets: AssetIndex([]), now: 2)
        #expect(state.apps["web"] == App(name: "web", locationPolicy: .keep, representation: .compatible, quality: 80))
        (state, _) = try PickerExecutor.apply(
            try PickerCommandParser.parse("app set web --quality 0.95"), to: state, assets: AssetIndex([]), now: 3)
        #expect(state.apps["web"] == App(name: "web", locationPolicy: .keep, representation: .compatible, quality: 95))
    }

    @Test func renderingMentionsItAndReplays() throws {
        let apps = [
            "plain": App(name: "plain"),
            "web": App(name: "web", representation: .compatible),
            "sharp": App(name: "sharp", representation: .compatible, quality: 95),
            "later": App(name: "later", quality: 60),
        ]
        #expect(PickerRenderer.appLine(apps["plain"]!) == "app add plain --location strip")
        #expect(PickerRenderer.appLine(apps["web"]!) == "app add web --location strip --representation compatible --quality 0.8")
        #expect(PickerRenderer.appLine(apps["sharp"]!) == "app add sharp --location strip --representation compatible --quality 0.95")
        #expect(PickerRenderer.appLine(apps["later"]!) == "app add later --location strip --quality 0.6")
        let state = AccessState(apps: apps, grants: apps.mapValues { _ in [] })
        let text = PickerRenderer.render(state, assets: AssetIndex([]))
        let (replayed, _) = try PickerExecutor.apply(try PickerCommandParser.parse(text), to: AccessState(), assets: AssetIndex([]), now: 1)
        #expect(replayed.apps == apps)
    }

    @Test func serializedCommandsParseBack() throws {
        let command = PickerCommand.appSet(name: "web", options: AppOptions(representation: .compatible, quality: 85))
        #expect(try PickerCommandParser.parse(command.serialized) == [PickerStatement(command, line: 1)])
    }
}
