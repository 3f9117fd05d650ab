import MediaFormats
import Testing

@testable import PhotoCore

/// `--metadata keep|private` in the picker language: parsed, applied, written back and
/// rendered so that `.picker` says what an app with that policy receives.
@Suite struct PickerMetadataOptionTests {
    @Test func parsesAppliesAndRendersPrivate() throws {
        let statements = try PickerCommandParser.parse("app add viewer --location keep --metadata private")
        #expect(statements.map(\.command) == [.appAdd(name: "viewer", options: AppOptions(location: .keep, metadata: .private))])
        let (state, _) = try PickerExecutor.apply(statements, to: AccessState(), assets: AssetIndex([]), now: 1)
        let app = try #require(state.apps["viewer"])
        #expect(app.metadataPolicy == .private && app.locationPolicy == .keep)
        let line = PickerRenderer.appLine(app)
        #expect(line == "app add viewer --location keep --metadata private")
        // The rendered line parses back to the same app.
        #expect(try PickerCommandParser.parse(line).map(\.command) == statements.map(\.command))
        let block = PickerRenderer.block(app, grants: [], assets: AssetIndex([]))
        #expect(block.contains(PickerRenderer.privateMetadataNote))
        // The serialized command (the CLI writes it to .picker) keeps the option.
        #expect(String(decoding: statements[0].command.serialized, as: UTF8.self).hasSuffix("--metadata private"))
    }

    @Test func setChangesOnlyTheMetadataPolicyAndKeepIsTheDefault() throws {
        let (added, _) = try PickerExecutor.apply(
            try PickerCommandParser.parse("app add a"), to: AccessState(), assets: AssetIndex([]), now: 1)
        #expect(added.apps["a"]?.metadataPolicy == .keep)
        #expect(!PickerRenderer.appLine(try #require(added.apps["a"])).contains("--metadata"))
        let (set, _) = try PickerExecutor.apply(
            try PickerCommandParser.parse("app set a --metadata private"), to: added, assets: AssetIndex([]), now: 2)
        #expect(set.apps["a"]?.metadataPolicy == .private && set.apps["a"]?.locationPolicy == added.apps["a"]?.locationPolicy)
    }

    @Test func aBadValueIsRefusedWithItsLine() {
        #expect(throws: PickerError.badOptionValue(option: "--metadata", value: "secret", line: 2)) {
            try PickerCommandParser.parse("# x\napp add a --metadata secret")
        }
    }
}
