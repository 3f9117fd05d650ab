import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs completion bash`, driven in a bash subprocess the way bash's programmable
/// completion calls it (COMP_WORDS, COMP_CWORD, then `_photofs`): subcommands, options,
/// option values, app names and asset paths from a real catalog.
@Suite("bash completion", .serialized, .enabled(if: BashAvailability.available))
struct CompletionTests {
    /// The completions bash offers for `words` (the last one is being completed), one per line.
    static func complete(_ words: [String]) -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = """
            source <('\(DaemonProcess.binary)' completion bash) || exit 9
            COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
            _photofs
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = run(["/usr/bin/env", "-u", "PHOTOFS_LIBRARY", "bash", "--norc", "--noprofile", "-c", script])
        #expect(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    @Test func completeRegistersTheFunction() {
        let result = run([
            "/usr/bin/env", "bash", "--norc", "-c", "source <('\(DaemonProcess.binary)' completion bash); complete -p photofs",
        ])
        #expect(result.output.trimmingCharacters(in: .newlines) == "complete -F _photofs photofs")
    }

    @Test func subcommandsComeFromTheHelp() {
        let commands = ManPageTests.commandsInHelp()
        #expect(commands.contains("select") && commands.contains("run"))
        #expect(Self.complete([DaemonProcess.binary, ""]).sorted() == (commands + ["help", "--help", "--version"]).sorted())
        #expect(Self.complete([DaemonProcess.binary, "s"]).sorted() == commands.filter { $0.hasPrefix("s") }.sorted())
        #expect(Self.complete([DaemonProcess.binary, "help", "unm"]) == ["unmount"])
    }

    /// Filter words as bash splits them at ':' (COMP_WORDBREAKS): the candidates replace only
    /// the part after the colon.
    @Test func filterKeysAndValuesAndNoBogusWords() {
        let b = DaemonProcess.binary
        #expect(Self.complete([b, "ls", "type", ":"]).sorted() == ["image", "live", "panorama", "screenshot", "video"])
        #expect(Self.complete([b, "ls", "type", ":", "vi"]) == ["video"])
        #expect(Self.complete([b, "ls", "ty"]) == ["type:"])
        #expect(Self.complete([b, "ls", "-has", ":"]).sorted() == ["date", "exif", "location"])
        #expect(Self.complete([b, "ls", "type", ":", "image", "camera"]) == ["camera:"])
        #expect(Self.complete([b, "app", "add", "x", "--filter", "type", ":", "im"]) == ["image"])
        #expect(!Self.complete([b, "run", "--mountpoint", "/tmp", ""]).contains("options"))
        #expect(Self.complete([b, "run", "--once", "x", ""]) == ["--"])
    }

    @Test func optionsAndValuesPerCommand() {
        #expect(Self.complete([DaemonProcess.binary, "ls", "--j"]) == ["--json"])
        #expect(Self.complete([DaemonProcess.binary, "mount", "--allow"]) == ["--allow-other"])
        #expect(Self.complete([DaemonProcess.binary, "run", "--share"]) == ["--share-net"])
        // app add's options live in its usage lines, not its option table.
        #expect(Self.complete([DaemonProcess.binary, "app", "add", "x", "--loc"]) == ["--location"])
        #expect(Self.complete([DaemonProcess.binary, "app", "add", "x", "--location", ""]).sorted() == ["coarse", "keep", "strip"])
        #expect(Self.complete([DaemonProcess.binary, "app", ""]).sorted() == ["add", "list", "remove", "set", "show"])
        #expect(
            Self.complete([DaemonProcess.binary, "completion", ""]).sorted() == ["apps", "assets", "bash", "candidates", "fish", "zsh"])
        // After 'run APP', the separator; after it, a command, then its arguments are files.
        #expect(Self.complete([DaemonProcess.binary, "run", "editor", ""]) == ["--"])
        #expect(Self.complete([DaemonProcess.binary, "run", "editor", "--", "ech"]).contains("echo"))
        #expect(Self.complete([DaemonProcess.binary, "run", "editor", "--", "ls", "/us"]) == ["/usr"])
    }

    @Test func appNamesAndAssetPathsFromTheCatalog() throws {
        let library = try IntegrationLibrary(prefix: "photofs-complete")
        defer { library.remove() }
        try library.photofs(["app", "add", "editor"])
        try library.photofs(["app", "add", "uploader"])
        try library.photofs(["app", "add", "viewer"])
        let b = DaemonProcess.binary
        let c = library.catalog
        #expect(Self.complete([b, "select", "--catalog", c, ""]) == ["editor", "uploader", "viewer"])
        #expect(Self.complete([b, "select", "--catalog", c, "u"]) == ["uploader"])
        #expect(Self.complete([b, "app", "show", "--catalog", c, "v"]) == ["viewer"])
        #expect(Self.complete([b, "clear", "--catalog", c, "e"]) == ["editor"])
        // A new app's name is not completed from the existing ones.
        #expect(Self.complete([b, "app", "add", "--catalog", c, "e"]) == [])
        // Asset paths: one folder level at a time, then the files in it.
        let paths = library.assets.map(\.path)
        let topLevel = Set(paths.map { path in path.contains("/") ? String(path.prefix { $0 != "/" }) + "/" : path }).sorted()
        #expect(Self.complete([b, "select", "--catalog", c, "editor", ""]) == topLevel)
        let folder = try #require(topLevel.first { $0.hasSuffix("/") })
        let inFolder = Set(
            paths.filter { $0.hasPrefix(folder) }.map { path -> String in
                let rest = path.dropFirst(folder.count)
                return folder + (rest.contains("/") ? String(rest.prefix { $0 != "/" }) + "/" : String(rest))
            }
        ).sorted()
        #expect(Self.complete([b, "deselect", "--catalog", c, "editor", paths[0], folder]) == inFolder)
        #expect(Self.complete([b, "show", "--catalog", c, folder]) == inFolder)
    }

    /// A folder with a space, typed with a backslash or in quotes, completes on: the words
    /// are read as the program gets them, and the replies are unquoted (bash quotes them
    /// itself for `-o filenames`).
    @Test func pathsWithSpacesTypedEscapedOrQuoted() throws {
        let library = try IntegrationLibrary(prefix: "photofs-complete")
        defer { library.remove() }
        try library.photofs(["app", "add", "editor"])
        let b = DaemonProcess.binary
        let c = library.catalog
        let inRoll = library.assets.map(\.path).filter { $0.hasPrefix("Camera Roll/") }.sorted()
        try #require(!inRoll.isEmpty, "the generated library has a 'Camera Roll' folder")
        #expect(Self.complete([b, "select", "--catalog", c, "editor", "Cam"]) == ["Camera Roll/"])
        #expect(Self.complete([b, "select", "--catalog", c, "editor", "Camera\\ Roll/"]) == inRoll)
        #expect(Self.complete([b, "select", "--catalog", c, "editor", "\"Camera Roll/"]) == inRoll)
        #expect(
            Self.complete([b, "select", "--catalog", c, "editor", "'Camera Roll/IMG"]) == inRoll.filter { $0.hasPrefix("Camera Roll/IMG") })
        // Deeper: a second folder level with a space, after an escaped first target.
        let summer = library.assets.map(\.path).filter { $0.hasPrefix("2023/Summer trip/") }.sorted()
        try #require(!summer.isEmpty)
        #expect(Self.complete([b, "deselect", "--catalog", c, "editor", "Camera\\ Roll/x.jpg", "2023/Summer\\ "]) == ["2023/Summer trip/"])
        #expect(Self.complete([b, "deselect", "--catalog", c, "editor", "2023/Summer\\ trip/"]) == summer)
        // A catalog path typed with a backslash still finds the apps.
        let spaced = library.base + "/my catalog.sqlite"
        #expect(run(["/bin/cp", c, spaced]).status == 0)
        #expect(Self.complete([b, "clear", "--catalog", spaced.replacingOccurrences(of: " ", with: "\\ "), "e"]) == ["editor"])
    }

    /// With bash-completion installed, its on-demand loader finds the script where the
    /// install script and the README put it (a user completions directory here).
    @Test(
        .enabled(
            if: Skip.unless(
                BashAvailability.bashCompletion != nil,
                "bash-completion loader test: bash_completion is missing (Debian package bash-completion)")))
    func bashCompletionLoaderFindsTheScript() throws {
        let loader = try #require(BashAvailability.bashCompletion)
        let directory = temporaryDirectory("photofs-complete")
        defer { run(["/bin/rm", "-rf", directory]) }
        mkdir(directory + "/completions", 0o755)
        let script = run([DaemonProcess.binary, "completion", "bash"])
        try script.output.write(toFile: directory + "/completions/photofs", atomically: true, encoding: .utf8)
        let result = run([
            "/usr/bin/env", "BASH_COMPLETION_USER_DIR=\(directory)", "bash", "--norc", "--noprofile", "-c",
            "source \(loader); __load_completion photofs; complete -p photofs",
        ])
        #expect(result.output.trimmingCharacters(in: .newlines) == "complete -F _photofs photofs", "\(result.output)")
    }
}

/// Whether bash and the built binary are there (outside the suite: a suite trait may not
/// refer to the suite itself).
enum BashAvailability {
    static var available: Bool {
        guard DaemonProcess.binaryExists else { return false }
        if IntegrationLibrary.program("bash") == nil {
            return Skip.unless(false, "completion test: bash is not installed")
        }
        return true
    }

    /// bash-completion's main script (Debian package bash-completion), or nil with a message.
    static var bashCompletion: String? {
        let path = "/usr/share/bash-completion/bash_completion"
        return access(path, R_OK) == 0 ? path : nil
    }
}
