import Testing

@testable import PhotoCore

/// Rule grants, exclusions, expiry and one-time runs in the executor, the membership and
/// the renderer, over the sample library. Capture-date order of the samples:
/// F E B D C H A G (C is the only video).
@Suite struct GrantTermsTests {
    static let index = PickerExecutorTests.index
    static let second: Int64 = 1_000_000_000
    /// A whole second, so rendered `--until` dates read back exactly.
    static let now: Int64 = 1_800_000_000 * second
    static let owner = RunOwner(pid: 4242, startTicks: 77, bootID: "0f1e2d3c-aaaa-bbbb-cccc-0123456789ab")

    static func run(_ script: String, on state: AccessState, at now: Int64 = now) throws(PickerError) -> AccessState {
        try PickerExecutorTests.run(script, on: state, now: now).0
    }

    /// The app's members as letters, in order.
    static func members(_ state: AccessState, _ app: String = "viewer", at now: Int64 = now) -> String {
        state.members(of: app, in: index, at: now).map(PickerExecutorTests.letter).joined()
    }

    @Test func ruleMembersFollowExplicitGrantsInCaptureDateOrder() throws {
        let state = try Self.run("select viewer --rule type:image", on: try PickerExecutorTests.base())
        #expect(Self.members(state) == "AFEBDHG")
        #expect(state.appsWithRules == ["viewer"])
        // The app's filter still applies: editor's excludes located photos (A B; H's
        // latitude of 200 is no location).
        let editor = try Self.run("app set editor --limit 0\nselect editor --rule type:image", on: try PickerExecutorTests.base())
        #expect(Self.members(editor, "editor") == "DEFHG")
    }

    @Test func ruleMatchesAssetsAddedLater() throws {
        let state = try Self.run("select viewer --rule make:samsung", on: try PickerExecutorTests.base())
        let withoutE = AssetIndex(SampleAssets.all.filter { $0.key != "E" }.map(\.value))
        #expect(state.members(of: "viewer", in: withoutE, at: Self.now).map(PickerExecutorTests.letter) == ["A"])
        #expect(Self.members(state) == "AE")
    }

    @Test func deselectingARuleMatchRecordsAnExclusionAndSelectLiftsIt() throws {
        var state = try Self.run("select viewer --rule type:image\ndeselect viewer @E @A @C", on: try PickerExecutorTests.base())
        // A was explicit and rule-matched: both go; C matches no rule: no exclusion.
        #expect(state.apps["viewer"]?.exclusions == [SampleAssets.id("E"), SampleAssets.id("A")])
        #expect(Self.members(state) == "FBDHG")
        state = try Self.run("select viewer @E", on: state)
        #expect(state.apps["viewer"]?.exclusions == [SampleAssets.id("A")])
        #expect(Self.members(state) == "EFBDHG")
        // Removing the last rule drops the exclusions with it; clear drops everything.
        let unruled = try Self.run("deselect viewer --rule type:image", on: state)
        #expect(unruled.apps["viewer"]?.rules == [])
        #expect(unruled.apps["viewer"]?.exclusions == [])
        #expect(Self.members(unruled) == "E")
        let cleared = try Self.run("clear viewer", on: state)
        #expect(cleared.apps["viewer"]?.rules == [] && cleared.apps["viewer"]?.exclusions == [])
        #expect(Self.members(cleared) == "")
    }

    @Test func rulesAndLimitsExcludeEachOther() throws {
        let base = try PickerExecutorTests.base()
        #expect(throws: PickerError.ruleWithLimit(app: "editor", line: 1)) { try Self.run("select editor --rule type:image", on: base) }
        let ruled = try Self.run("select viewer --rule type:image", on: base)
        #expect(throws: PickerError.ruleWithLimit(app: "viewer", line: 1)) { try Self.run("app set viewer --limit 5", on: ruled) }
        #expect(PickerError.ruleWithLimit(app: "viewer", line: 1).errnoKind == .quotaExceeded)
    }

    @Test func expiryEndsMembershipAndTheStateDropsIt() throws {
        let state = try Self.run(
            "select viewer @B --for 10s\nselect viewer --rule make:samsung --until 2027-02-01T00:00:00Z", on: try PickerExecutorTests.base()
        )
        #expect(state.grants["viewer"]?.last?.terms.expiresAtNanoseconds == Self.now + 10 * Self.second)
        #expect(state.nextExpiry == Self.now + 10 * Self.second)
        #expect(Self.members(state, at: Self.now + 9 * Self.second) == "ABE")
        #expect(Self.members(state, at: Self.now + 10 * Self.second) == "AE")
        let ended = state.ending(at: Self.now + 10 * Self.second, isRunning: { _ in true })
        #expect(PickerExecutorTests.summary(ended) == "editor=DE viewer=A")
        #expect(ended.apps["viewer"]?.rules.count == 1)
        let ruleEnd = try ExpiryParser.nanoseconds("2027-02-01T00:00:00Z")
        #expect(ended.ending(at: ruleEnd, isRunning: { _ in true }).apps["viewer"]?.rules == [])
        // Nothing due: the same state.
        #expect(state.ending(at: Self.now, isRunning: { _ in true }) == state)
    }

    @Test func theAppDefaultLifetimeAppliesWhenSelectSaysNothing() throws {
        let state = try Self.run(
            "app set viewer --grants-expire 1h\nselect viewer @B\nselect viewer @C --for 5m", on: try PickerExecutorTests.base())
        #expect(state.apps["viewer"]?.grantsExpireSeconds == 3_600)
        #expect(
            state.grants["viewer"]?.map(\.terms.expiresAtNanoseconds) == [
                nil, Self.now + 3_600 * Self.second, Self.now + 300 * Self.second,
            ])
        // A default never shortens a lasting grant that is selected again; explicit terms do.
        let again = try Self.run("select viewer @A", on: state)
        #expect(again.grants["viewer"]?.first?.terms == GrantTerms())
        let shortened = try Self.run("select viewer @A --for 1m", on: state)
        #expect(shortened.grants["viewer"]?.first?.terms.expiresAtNanoseconds == Self.now + 60 * Self.second)
        let unset = try Self.run("app set viewer --grants-expire none", on: state)
        #expect(unset.apps["viewer"]?.grantsExpireSeconds == nil)
    }

    @Test func aDateThatHasPassedIsRefused() throws {
        #expect(throws: PickerError.expiryPassed(line: 1)) {
            try Self.run("select viewer @B --until 2020-01-01T00:00Z", on: try PickerExecutorTests.base())
        }
    }

    @Test func grantsMadeDuringAOneTimeRunEndWithIt() throws {
        let owner = Self.owner
        var state = try Self.run(
            "once begin viewer \(owner)\nselect viewer @B @A\nselect viewer --rule make:samsung", on: try PickerExecutorTests.base())
        #expect(state.apps["viewer"]?.onceRun == owner)
        // A was granted before the run: it stays a lasting grant.
        #expect(state.grants["viewer"]?.map(\.terms.once) == [nil, owner])
        #expect(state.apps["viewer"]?.rules.first?.terms.once == owner)
        #expect(Self.members(state) == "ABE")
        #expect(throws: PickerError.onceRunGoing(app: "viewer", line: 1)) {
            try Self.run("once begin viewer 1:2:ab", on: state)
        }
        let ended = try Self.run("once end viewer \(owner)", on: state)
        #expect(Self.members(ended) == "A")
        #expect(ended.apps["viewer"]?.onceRun == nil)
        // The daemon's sweep ends it the same way once the process is gone, and not before.
        #expect(state.ending(at: Self.now, isRunning: { _ in true }) == state)
        state = state.ending(at: Self.now, isRunning: { $0 != owner })
        #expect(state == ended)
    }

    @Test func renderedTextReplaysToTheSameMembersAndTerms() throws {
        let state = try Self.run(
            """
            app set viewer --grants-expire 2d
            once begin editor \(Self.owner)
            select viewer @B --for 1h
            select viewer --rule 'type:image -make:apple' --until 2027-06-01T00:00Z
            deselect viewer @E
            """, on: try PickerExecutorTests.base())
        let text = PickerRenderer.render(state, assets: Self.index)
        #expect(text.contains("app add viewer --location keep\n"))
        #expect(text.contains("excluded from the rules: Pano/PANO_0001.jpg\napp set viewer --grants-expire 2d\n"))
        // After the editor's grants, which were made before the run and so must not replay into it.
        #expect(
            text.contains(
                "  # Screens/Screenshot 2024-03-02.png\nselect editor \(SampleAssets.id("E"))  # Pano/PANO_0001.jpg\nonce begin editor \(Self.owner)\n"
            ))
        #expect(text.contains("select viewer --rule 'type:image -make:apple' --until 2027-06-01T00:00:00Z --once") == false)
        #expect(text.contains("select viewer --rule 'type:image -make:apple' --until 2027-06-01T00:00:00Z\n"))
        #expect(text.contains("deselect viewer \(SampleAssets.id("E"))  # excluded from the rules: Pano/PANO_0001.jpg\n"))
        #expect(text.contains("# viewer: 2 selected, 6 visible, 1 rule matching 4, 1 excluded\n"))
        let replayed = try Self.run(text, on: AccessState())
        for name in ["editor", "viewer"] {
            #expect(Self.members(replayed, name) == Self.members(state, name))
            #expect(replayed.grants[name]?.map(\.terms) == state.grants[name]?.map(\.terms))
            #expect(replayed.apps[name]?.rules.map(\.terms) == state.apps[name]?.rules.map(\.terms))
            #expect(replayed.apps[name]?.exclusions == state.apps[name]?.exclusions)
            #expect(replayed.apps[name]?.onceRun == state.apps[name]?.onceRun)
        }
    }

    @Test func newCommandsSerializeAndParseBack() throws {
        let filter = try Filter("type:image OR make:'x y'")
        let commands: [PickerCommand] = [
            .selectWith(app: "ed", targets: [PickerTarget("--x"), PickerTarget("a b.jpg")], grant: GrantOptions(lifetime: .seconds(90))),
            .selectWith(app: "ed", targets: [PickerTarget("a")], grant: GrantOptions(lifetime: .until(Self.now), once: Self.owner)),
            .selectWhereWith(app: "ed", filter: filter, grant: GrantOptions(once: Self.owner)),
            .selectRule(app: "ed", filter: filter, grant: GrantOptions()),
            .selectRule(app: "ed", filter: filter, grant: GrantOptions(lifetime: .seconds(604_800))),
            .deselectRule(app: "ed", filter: "type:image OR make:'x y'"),
            .onceBegin(app: "ed", owner: Self.owner),
            .onceEnd(app: "ed", owner: Self.owner),
            .appSet(name: "ed", options: AppOptions(grantsExpire: .seconds(3_600))),
            .appSet(name: "ed", options: AppOptions(grantsExpire: GrantsExpireSetting.none)),
        ]
        for command in commands {
            #expect(try PickerCommandParser.parse(command.serialized).first?.command == command)
        }
    }

    @Test(arguments: [
        ("select a x --for 1h --until 2027-01-01", PickerError.conflictingOptions("--for", "--until", line: 1)),
        ("select a --where type:image --rule type:video", .conflictingOptions("--where", "--rule", line: 1)),
        ("select a x --for 1y", .invalidExpiry(option: "--for", .unknownUnit("y", at: 1), line: 1)),
        ("select a x --until 2027-13-01", .invalidExpiry(option: "--until", .badDate(field: "month", at: 5), line: 1)),
        ("select a --rule type:image x", .unexpectedArgument("x", line: 1)),
        ("select a --rule", .missingOptionValue("--rule", line: 1)),
        ("select a x --once 12", .badOptionValue(option: "--once", value: "12", line: 1)),
        ("select a x --for 1h --for 2h", .repeatedOption("--for", line: 1)),
        ("deselect a x --for 1h", .unknownOption("--for", line: 1)),
        ("app set a --grants-expire soon", .invalidExpiry(option: "--grants-expire", .expectedNumber("s", at: 0), line: 1)),
        ("app add a --rule type:image", .unknownOption("--rule", line: 1)),
        ("once begin a", .missingArgument("run owner (PID:START:BOOT-ID)", line: 1)),
        ("once start a 1:2:ab", .unknownCommand("once start", line: 1)),
        ("once end a 0:2:ab", .badOptionValue(option: "--once", value: "0:2:ab", line: 1)),
    ])
    func malformedTermsAreInvalid(text: String, expected: PickerError) {
        #expect(throws: expected) { try PickerCommandParser.parse(text) }
        #expect(expected.errnoKind == .invalid)
    }

    @Test func runOwnersParse() {
        #expect(RunOwner("12:34:ab-cd") == RunOwner(pid: 12, startTicks: 34, bootID: "ab-cd"))
        for bad in ["", "1:2", "1:2:3:4", "x:2:ab", "1:x:ab", "1:2:", "1:2:zz", "-1:2:ab"] { #expect(RunOwner(bad) == nil) }
    }
}
