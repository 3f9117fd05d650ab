import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs completion zsh` and `photofs completion fish`: each shell reads its script
/// without a syntax error, the scripts name every command and option of the table, and
/// fish (whose `complete -C` answers without a terminal) completes commands, options, app
/// names and asset paths with spaces, as does `photofs completion candidates`, which both
/// scripts ask.
@Suite("zsh and fish completion", .serialized, .enabled(if: DaemonProcess.binaryExists))
struct ShellCompletionTests {
    static func shell(_ name: String) -> String? {
        IntegrationLibrary.program(name)
    }

    /// The command names and `--options` of `photofs help COMMAND` for every command.
    static func commandsAndOptions() -> [(command: String, options: [String])] {
        ManPageTests.commandsInHelp().map { command in
            let help = run([DaemonProcess.binary, "help", command]).output
            let options = help.split(separator: "\n").drop { $0 != "Options:" }.dropFirst().compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("--") }.map(String.init)
            }
            return (command, options)
        }
    }

    static func scriptNamesEverything(_ script: String) {
        let table = commandsAndOptions()
        #expect(table.count >= 10)
        for (command, options) in table {
            #expect(script.contains(command), "\(command) missing")
            for option in options {
                let long = String(option.dropFirst(2))
                #expect(script.contains("--" + long) || script.contains("-l " + long), "\(command) \(option) missing")
            }
        }
    }

    @Test(.enabled(if: Skip.unless(shell("zsh") != nil, "zsh completion test: zsh is not installed (Debian package zsh)")))
    func zshReadsTheScriptAndItNamesEverything() throws {
        let zsh = try #require(Self.shell("zsh"))
        let result = run(["/bin/sh", "-c", "'\(DaemonProcess.binary)' completion zsh | '\(zsh)' -n"])
        #expect(result.status == 0, "\(result.output)")
        let script = run([DaemonProcess.binary, "completion", "zsh"]).output
        #expect(script.hasPrefix("#compdef photofs\n"))
        Self.scriptNamesEverything(script)
        // A mistake is caught: the check can fail.
        let broken = run(["/bin/sh", "-c", "'\(DaemonProcess.binary)' completion zsh | sed 's/^    fi$//' | '\(zsh)' -n"])
        #expect(broken.status != 0)
    }

    /// `complete -C LINE` in a fresh fish with the script loaded: the candidates, first field.
    static func fishComplete(_ fish: String, _ line: String) -> [String] {
        let directory = (DaemonProcess.binary as NSString).deletingLastPathComponent
        let script = "'\(DaemonProcess.binary)' completion fish | source; complete -C \(FishQuoting.quote(line))"
        let result = run(["/usr/bin/env", "PATH=\(directory):/usr/bin:/bin", fish, "--no-config", "-c", script])
        #expect(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[0]) }
    }

    @Test(.enabled(if: Skip.unless(shell("fish") != nil, "fish completion test: fish is not installed (Debian package fish)")))
    func fishCompletesCommandsOptionsAppsAndPaths() throws {
        let fish = try #require(Self.shell("fish"))
        let syntax = run(["/bin/sh", "-c", "'\(DaemonProcess.binary)' completion fish | '\(fish)' --no-execute"])
        #expect(syntax.status == 0, "\(syntax.output)")
        Self.scriptNamesEverything(run([DaemonProcess.binary, "completion", "fish"]).output)
        let library = try IntegrationLibrary(prefix: "photofs-fish")
        defer { library.remove() }
        try library.photofs(["app", "add", "editor"])
        try library.photofs(["app", "add", "uploader"])
        let c = library.catalog
        #expect(Self.fishComplete(fish, "photofs unm") == ["unmount"])
        #expect(Set(Self.fishComplete(fish, "photofs ls --")).isSuperset(of: ["--json", "--count", "--catalog", "--library"]))
        #expect(Self.fishComplete(fish, "photofs select --catalog \(c) ") == ["editor", "uploader"])
        #expect(Self.fishComplete(fish, "photofs app add x --location ").sorted() == ["coarse", "keep", "strip"])
        #expect(Self.fishComplete(fish, "photofs select --catalog \(c) editor Cam") == ["Camera Roll/"])
        let inRoll = library.assets.map(\.path).filter { $0.hasPrefix("Camera Roll/") }.sorted()
        #expect(Self.fishComplete(fish, "photofs select --catalog \(c) editor Camera\\ Roll/").sorted() == inRoll)
    }

    @Test func candidatesFollowTheUsageLines() throws {
        let library = try IntegrationLibrary(prefix: "photofs-candidates")
        defer { library.remove() }
        try library.photofs(["app", "add", "editor"])
        func candidates(_ words: [String]) -> [String] {
            run([DaemonProcess.binary, "completion", "candidates", "--"] + words).output.split(separator: "\n").map(String.init)
        }
        let c = library.catalog
        #expect(candidates(["sel"]) == ["select"])
        #expect(candidates(["mount", ""]) == [":dir"])
        #expect(candidates(["mount", "--catalog", ""]) == [":file"])
        #expect(candidates(["select", "--catalog", c, ""]) == ["editor"])
        #expect(
            candidates(["select", "--catalog", c, "editor", "Camera Roll/"])
                == library.assets.map(\.path).filter { $0.hasPrefix("Camera Roll/") }.sorted())
        #expect(candidates(["run", "editor", ""]) == ["--"])
        #expect(candidates(["run", "editor", "--", "l"]) == [":command"])
        #expect(candidates(["frobnicate", ""]) == [])
        // Only real candidates: after `run --mountpoint M` come app names, never a word of the usage text.
        #expect(!candidates(["run", "--mountpoint", library.mountpoint, ""]).contains("options"))
        #expect(candidates(["run", "--mountpoint", library.mountpoint, "editor", ""]) == ["--"])
        // Filter keys and their values.
        #expect(candidates(["ls", "ty"]) == ["type:"])
        #expect(candidates(["ls", "type:"]) == ["type:image", "type:video", "type:live", "type:screenshot", "type:panorama"])
        #expect(candidates(["ls", "type:image", "-has:l"]) == ["-has:location"])
        #expect(candidates(["app", "add", "x", "--filter", "orientation:"]).count == 8)
    }

    @Test(.enabled(if: Skip.unless(shell("fish") != nil, "fish completion test: fish is not installed (Debian package fish)")))
    func fishCompletesFilterKeysAndValues() throws {
        let fish = try #require(Self.shell("fish"))
        #expect(
            Self.fishComplete(fish, "photofs ls type:").sorted() == [
                "type:image", "type:live", "type:panorama", "type:screenshot", "type:video",
            ])
        #expect(Self.fishComplete(fish, "photofs ls has:e") == ["has:exif"])
        #expect(!Self.fishComplete(fish, "photofs run --mountpoint /tmp ").contains("options"))
        // A negated filter word is a filter word, not an option.
        #expect(Self.fishComplete(fish, "photofs ls -has:l") == ["-has:location"])
        #expect(Self.fishComplete(fish, "photofs ls -has:location ty") == ["type:"])
    }

    /// zsh completes only at a prompt: an interactive `zsh -f` in tmux loads the script, the
    /// test types a line and Tab, and reads the line back from the pane.
    @Test(
        .enabled(
            if: Skip.unless(
                shell("zsh") != nil && IntegrationLibrary.program("tmux") != nil,
                "zsh completion test: zsh or tmux is not installed (Debian packages zsh, tmux)")))
    func zshCompletesOptionsAndNegatedFilterWords() throws {
        let zsh = try #require(Self.shell("zsh"))
        let socket = "photofs-zsh-\(getpid())"
        func tmux(_ arguments: [String]) -> (status: Int32, output: String) {
            run([TerminalPickerAvailability.tmux, "-L", socket] + arguments)
        }
        defer { _ = tmux(["kill-server"]) }
        let directory = (DaemonProcess.binary as NSString).deletingLastPathComponent
        let shell = "env -i TERM=xterm HOME=/nonexistent PATH=\(directory):/usr/bin:/bin \(zsh) -f"
        try IntegrationLibrary.check(tmux(["new-session", "-d", "-s", "z", "-x", "160", "-y", "20", shell]))
        func line(after keys: String, until expected: String) -> String {
            _ = tmux(["send-keys", "-t", "z", "-l", keys])
            _ = tmux(["send-keys", "-t", "z", "Tab"])
            var text = ""
            for _ in 0..<200 {
                text = tmux(["capture-pane", "-p", "-t", "z"]).output
                if text.contains(expected) { break }
                usleep(50_000)
            }
            _ = tmux(["send-keys", "-t", "z", "C-c"])
            return text
        }
        _ = tmux(["send-keys", "-t", "z", "-l", "PS1='> '; autoload -Uz compinit && compinit -u -D && source <(photofs completion zsh)"])
        _ = tmux(["send-keys", "-t", "z", "Enter"])
        #expect(line(after: "photofs ls -has:l", until: "photofs ls -has:location").contains("photofs ls -has:location"))
        #expect(line(after: "photofs ls --js", until: "photofs ls --json").contains("photofs ls --json"))
        #expect(line(after: "photofs ls -has:location ty", until: "-has:location type:").contains("photofs ls -has:location type:"))
    }
}

/// Quoting for the fish command line of a test.
enum FishQuoting {
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
