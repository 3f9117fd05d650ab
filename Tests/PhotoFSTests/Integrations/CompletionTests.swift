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

    @Test func optionsAndValuesPerCommand() {
        #expect(Self.complete([DaemonProcess.binary, "ls", "--j"]) == ["--json"])
        #expect(Self.complete([DaemonProcess.binary, "mount", "--allow"]) == ["--allow-other"])
        #expect(Self.complete([DaemonProcess.binary, "run", "--share"]) == ["--share-net"])
        // app add's options live in its usage lines, not its option table.
        #expect(Self.complete([DaemonProcess.binary, "app", "add", "x", "--loc"]) == ["--location"])
        #expect(Self.complete([DaemonProcess.binary, "app", "add", "x", "--location", ""]).sorted() == ["coarse", "keep", "strip"])
        #expect(Self.complete([DaemonProcess.binary, "app", ""]).sorted() == ["add", "list", "remove", "set", "show"])
        #expect(Self.complete([DaemonProcess.binary, "completion", ""]).sorted() == ["apps", "assets", "bash"])
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
}
