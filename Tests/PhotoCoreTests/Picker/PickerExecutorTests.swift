import Testing

@testable import PhotoCore

/// The executor over the sample library (see `SampleAssets`). In the scripts, `@X` stands
/// for the id of sample asset X.
@Suite struct PickerExecutorTests {
    static let index = AssetIndex(Array(SampleAssets.all.values))

    /// editor: images without location (D E F G H pass), limit 3, selected D E.
    /// viewer: no filter, no limit, selected A.
    static let baseScript = """
        app add editor --filter 'type:image -has:location' --limit 3 --uid 1001
        app add viewer --location keep
        select editor @D @E
        select viewer @A
        """

    static func expand(_ script: String) -> String {
        var text = script
        for letter in SampleAssets.all.keys { text = text.replacing("@" + letter, with: SampleAssets.id(letter).rawValue) }
        return text
    }

    static func run(_ script: String, on state: AccessState, now: Int64 = 1) throws(PickerError) -> (AccessState, [AccessChange]) {
        let statements = try PickerCommandParser.parse(expand(script))
        return try PickerExecutor.apply(statements, to: state, assets: index, now: now)
    }

    static func base() throws -> AccessState {
        try run(baseScript, on: AccessState()).0
    }

    static func letter(_ id: AssetID) -> String {
        String(UnicodeScalar(UInt8(id.rawValue.suffix(2), radix: 16) ?? 63))
    }

    /// `editor=DE viewer=A`: every app with its selection in order.
    static func summary(_ state: AccessState) -> String {
        state.apps.keys.sorted().map { name in
            name + "=" + (state.grants[name] ?? []).map { letter($0.asset) }.joined()
        }.joined(separator: " ")
    }

    @Test func baseStateIsAsScripted() throws {
        let state = try Self.base()
        #expect(Self.summary(state) == "editor=DE viewer=A")
        #expect(
            state.apps["editor"]
                == App(name: "editor", filter: "type:image -has:location", locationPolicy: .strip, selectionLimit: 3, uid: 1001))
        #expect(state.apps["viewer"] == App(name: "viewer", locationPolicy: .keep))
    }

    @Test(arguments: [
        ("select editor @F", "editor=DEF viewer=A"),
        ("select editor @F @F @D", "editor=DEF viewer=A"),
        ("select editor Pano/PANO_0001.jpg ./docs/diagram.png", "editor=DEF viewer=A"),
        ("select editor 000000000046", "editor=DEF viewer=A"),
        ("select viewer @B @A", "editor=DE viewer=AB"),
        ("deselect viewer @A", "editor=DE viewer="),
        ("deselect viewer @B", "editor=DE viewer=A"),
        ("deselect editor Pano/PANO_0001.jpg", "editor=D viewer=A"),
        ("clear viewer", "editor=DE viewer="),
        ("app remove viewer", "editor=DE"),
        ("app add third\nselect third @C", "editor=DE third=C viewer=A"),
        ("select editor --where 'taken:2024'", "editor=DEH viewer=A"),
        ("select viewer --where 'type:image'", "editor=DE viewer=AFEBDHG"),
        ("select viewer --where 'type:live'", "editor=DE viewer=A"),
        ("app set editor --limit 0\nselect editor --where type:image", "editor=DEFHG viewer=A"),
        ("deselect editor @D\nselect editor @D", "editor=ED viewer=A"),
        ("select editor @F\ndeselect editor @F", "editor=DE viewer=A"),
        ("app set editor --filter ''\nselect editor @A", "editor=DEA viewer=A"),
        ("app set editor --filter type:video", "editor=DE viewer=A"),
        ("app remove viewer\napp add viewer\nselect viewer @B", "editor=DE viewer=B"),
    ])
    func commandsApply(script: String, expected: String) throws {
        let (state, _) = try Self.run(script, on: try Self.base())
        #expect(Self.summary(state) == expected)
    }

    /// Errors raised by the executor, with their errno family and reason. The base state
    /// must come out unchanged: the executor returns nothing when it throws, and the
    /// state passed in is a value.
    @Test(arguments: [
        (
            "select editor @A", PickerError.outsideFilter(app: "editor", asset: SampleAssets.id("A"), line: 1),
            PickerErrnoKind.notPermitted,
            "line 1: asset 000000000041 does not pass the filter of app 'editor'"
        ),
        (
            "select editor @F @G", .limitExceeded(app: "editor", limit: 3, wouldHave: 4, line: 1), .quotaExceeded,
            "line 1: app 'editor' may have at most 3 selected, this would make 4; deselect some or raise --limit"
        ),
        (
            "select editor --where type:image", .limitExceeded(app: "editor", limit: 3, wouldHave: 5, line: 1), .quotaExceeded,
            "line 1: app 'editor' may have at most 3 selected, this would make 5; deselect some or raise --limit"
        ),
        (
            "app set editor --limit 1", .limitExceeded(app: "editor", limit: 1, wouldHave: 2, line: 1), .quotaExceeded,
            "line 1: app 'editor' may have at most 1 selected, this would make 2; deselect some or raise --limit"
        ),
        ("select nobody @A", .unknownApp("nobody", line: 1), .notFound, "line 1: no app named 'nobody'; create it with: app add nobody"),
        ("deselect nobody @A", .unknownApp("nobody", line: 1), .notFound, "line 1: no app named 'nobody'; create it with: app add nobody"),
        ("clear nobody", .unknownApp("nobody", line: 1), .notFound, "line 1: no app named 'nobody'; create it with: app add nobody"),
        (
            "app set nobody --limit 1", .unknownApp("nobody", line: 1), .notFound,
            "line 1: no app named 'nobody'; create it with: app add nobody"
        ),
        ("app remove nobody", .unknownApp("nobody", line: 1), .notFound, "line 1: no app named 'nobody'; create it with: app add nobody"),
        (
            "select editor nothing.jpg", .unknownAsset(target: Array("nothing.jpg".utf8), line: 1), .notFound,
            "line 1: no asset 'nothing.jpg'; give an asset id, a path relative to the library or a path in the mount"
        ),
        (
            "select editor 0123456789ab", .unknownAsset(target: Array("0123456789ab".utf8), line: 1), .notFound,
            "line 1: no asset '0123456789ab'; give an asset id, a path relative to the library or a path in the mount"
        ),
        (
            "select editor /etc/passwd", .unknownAsset(target: Array("/etc/passwd".utf8), line: 1), .notFound,
            "line 1: no asset '/etc/passwd'; give an asset id, a path relative to the library or a path in the mount"
        ),
        (
            "deselect viewer Trips/../Trips/2024/IMG_0001.JPG",
            .unknownAsset(target: Array("Trips/../Trips/2024/IMG_0001.JPG".utf8), line: 1),
            .notFound,
            "line 1: no asset 'Trips/../Trips/2024/IMG_0001.JPG'; give an asset id, a path relative to the library or a path in the mount"
        ),
        (
            "app add editor", .appExists("editor", line: 1), .alreadyExists,
            "line 1: app 'editor' already exists; change it with: app set editor ..."
        ),
        // Transactions that fail half-way: earlier commands of the write leave no trace.
        (
            "select viewer @B\nselect viewer nothing", .unknownAsset(target: Array("nothing".utf8), line: 2), .notFound,
            "line 2: no asset 'nothing'; give an asset id, a path relative to the library or a path in the mount"
        ),
        (
            "app add third\nselect third @A\nclear viewer\napp remove editor\n\nselect third @Q",
            .unknownAsset(target: Array("@Q".utf8), line: 6),
            .notFound, "line 6: no asset '@Q'; give an asset id, a path relative to the library or a path in the mount"
        ),
        (
            "app set editor --filter '' --limit 0 --uid none\nselect editor @A\napp set editor --limit 2",
            .limitExceeded(app: "editor", limit: 2, wouldHave: 3, line: 3),
            .quotaExceeded, "line 3: app 'editor' may have at most 2 selected, this would make 3; deselect some or raise --limit"
        ),
        (
            "clear editor\nselect editor @B", .outsideFilter(app: "editor", asset: SampleAssets.id("B"), line: 2), .notPermitted,
            "line 2: asset 000000000042 does not pass the filter of app 'editor'"
        ),
    ])
    func refusedWritesLeaveNoTrace(script: String, expected: PickerError, kind: PickerErrnoKind, reason: String) throws {
        let before = try Self.base()
        var state = before
        #expect(throws: expected) { state = try Self.run(script, on: state).0 }
        #expect(state == before)
        // Where the write failed half-way, the commands before the failing line do change
        // the state on their own: so the unchanged state above really is a rollback.
        let prefix = script.split(separator: "\n", omittingEmptySubsequences: false).prefix(expected.line - 1).joined(separator: "\n")
        if expected.line > 1 {
            #expect(try Self.run(prefix, on: before).0 != before)
        }
        #expect(expected.errnoKind == kind)
        #expect(expected.reason == reason)
    }

    @Test func parseErrorAfterValidCommandsAppliesNothing() throws {
        // A syntax error anywhere rejects the whole write before anything runs.
        #expect(throws: PickerError.unterminatedQuote(line: 2, column: 15)) {
            try Self.run("clear viewer\nselect editor 'x", on: try Self.base())
        }
    }

    @Test func grantsRecordTheirTimeAndKeepOldOnes() throws {
        let (state, _) = try Self.run("select viewer @B @A", on: try Self.base(), now: 99)
        #expect(state.grants["viewer"]?.map(\.grantedAtNanoseconds) == [1, 99])
    }

    @Test(arguments: [
        ("select editor @F", [AccessChange.granted(app: "editor", asset: SampleAssets.id("F"))]),
        ("select editor @F\ndeselect editor @F", []),
        ("select editor @D", []),
        ("deselect editor @D\nselect editor @D", [.reordered(app: "editor")]),
        (
            "app remove editor",
            [
                .appRemoved("editor"), .revoked(app: "editor", asset: SampleAssets.id("D")),
                .revoked(app: "editor", asset: SampleAssets.id("E")),
            ]
        ),
        (
            "select editor @F\ndeselect viewer @A\napp set viewer --location strip",
            [
                .granted(app: "editor", asset: SampleAssets.id("F")), .appChanged("viewer"),
                .revoked(app: "viewer", asset: SampleAssets.id("A")),
            ]
        ),
        ("app add x --filter type:video", [.appAdded("x")]),
        ("app set viewer --location keep", []),
        ("clear viewer", [.revoked(app: "viewer", asset: SampleAssets.id("A"))]),
    ])
    func changesAreTheNetDifference(script: String, expected: [AccessChange]) throws {
        let (_, changes) = try Self.run(script, on: try Self.base())
        #expect(changes == expected)
    }

    @Test func deselectWorksForAnAssetThatLeftTheLibrary() throws {
        let gone = AssetID("abcdefabcdef")!
        var state = try Self.base()
        state.grants["viewer"]?.append(Grant(asset: gone, grantedAtNanoseconds: 5))
        #expect(throws: PickerError.unknownAsset(target: Array("abcdefabcdef".utf8), line: 1)) {
            try Self.run("select editor abcdefabcdef", on: state)
        }
        let (after, changes) = try Self.run("deselect viewer ABCDEFABCDEF", on: state)
        #expect(Self.summary(after) == "editor=DE viewer=A")
        #expect(changes == [.revoked(app: "viewer", asset: gone)])
    }

    @Test(
        arguments: [
            ("library/folders/Trips/2024/IMG_0001.JPG", "A"),
            ("/mnt/p/library/folders/docs/diagram.png", "F"),
            ("library/folders/Trips/../Trips/2024/IMG_0001.JPG", nil),
            ("library/folders//Trips/2024/IMG_0001.JPG", nil),
            ("/elsewhere/library/folders/docs/diagram.png", nil),
            ("library/all/IMG_0001.JPG", nil),
        ] as [(String, String?)])
    func folderPathsInTheMountResolve(target: String, expected: String?) throws {
        let resolver = FolderPathResolver(mountpoint: Array("/mnt/p".utf8), assets: Self.index)
        #expect(resolver.resolve(Array(target.utf8)).map(Self.letter) == expected)
        let statements = try PickerCommandParser.parse("select viewer '\(target)'")
        if let expected {
            let (state, _) = try PickerExecutor.apply(statements, to: try Self.base(), assets: Self.index, resolver: resolver, now: 1)
            #expect(Self.summary(state).hasSuffix(expected == "A" ? "viewer=A" : "viewer=A" + expected))
        } else {
            #expect(throws: PickerError.unknownAsset(target: Array(target.utf8), line: 1)) {
                try PickerExecutor.apply(statements, to: try Self.base(), assets: Self.index, resolver: resolver, now: 1)
            }
        }
    }

    @Test func tenThousandTargetsInOneWrite() throws {
        let assets = (0..<10_000).map { n in
            let hex = String(n, radix: 16)
            return SampleAssets.asset("A", "bulk/\(n).jpg", .jpeg, size: 1).withID(
                AssetID("f" + String(repeating: "0", count: 11 - hex.count) + hex)!)
        }
        let index = AssetIndex(assets)
        let text = "app add bulk\nselect bulk " + assets.map(\.id.rawValue).joined(separator: " ")
        let (state, changes) = try PickerExecutor.apply(try PickerCommandParser.parse(text), to: AccessState(), assets: index, now: 1)
        #expect(state.grants["bulk"]?.map(\.asset) == assets.map(\.id))
        #expect(changes.count == 10_001)
    }
}

extension Asset {
    func withID(_ id: AssetID) -> Asset {
        var copy = self
        copy.id = id
        return copy
    }
}

@Suite struct AccessVisibilityTests {
    @Test func viewIsGrantedAndPassingAndCatalogued() throws {
        var state = try PickerExecutorTests.base()
        state.grants["editor"]?.insert(Grant(asset: SampleAssets.id("A"), grantedAtNanoseconds: 1), at: 1)
        state.grants["editor"]?.append(Grant(asset: AssetID("abcdefabcdef")!, grantedAtNanoseconds: 1))
        let index = PickerExecutorTests.index
        #expect(state.visibleAssets(of: "editor", in: index).map { PickerExecutorTests.letter($0.id) } == ["D", "E"])
        #expect(state.visibleAssets(of: "viewer", in: index).map { PickerExecutorTests.letter($0.id) } == ["A"])
        #expect(state.visibleAssets(of: "nobody", in: index).isEmpty)
        // Widening the filter brings the hidden grant back in its original position.
        let (widened, _) = try PickerExecutor.apply(write: Array("app set editor --filter ''".utf8), to: state, assets: index, now: 1)
        #expect(widened.visibleAssets(of: "editor", in: index).map { PickerExecutorTests.letter($0.id) } == ["D", "A", "E"])
        state.apps["editor"]?.filter = "colour:red"
        #expect(state.visibleAssets(of: "editor", in: index).isEmpty)
    }
}
