import Foundation
import Glibc
import PhotoCore
import Testing

/// The man page's reference sections against the tables they document: every filter key
/// of `FilterKey`, every command of the picker language (its examples parsed by the
/// picker's own parser), every `-o` option the mount helper script accepts (and each one
/// the page lists accepted by it), every environment variable the sources read, and every
/// exit code. `photofs help TOPIC` prints the same tables.
@Suite("man page reference sections", .enabled(if: DaemonProcess.binaryExists))
struct ManPageReferenceTests {
    /// The man page as plain text per `.SH` section.
    static func sections() -> [String: String] {
        let roff = run([DaemonProcess.binary, "man"]).output
        var sections: [String: String] = [:]
        var current = ""
        for line in roff.split(separator: "\n").map(String.init) {
            if line.hasPrefix(".SH ") {
                current = ManPageTests.plain(String(line.dropFirst(4)))
                continue
            }
            // A request line (`.B text`, `.BI "a" " b"`) keeps its text without the quotes.
            let text = line.hasPrefix(".") ? String(line.drop { $0 != " " }.dropFirst()).replacingOccurrences(of: "\"", with: "") : line
            sections[current, default: ""] += ManPageTests.plain(text) + "\n"
        }
        return sections
    }

    @Test func pageHasTheSectionsOfAFilesystemManual() {
        let names = Set(Self.sections().keys)
        for wanted in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "MOUNT OPTIONS", "FILTER LANGUAGE", "PICKER LANGUAGE",
            "REQUEST FILE", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO",
        ] {
            #expect(names.contains(wanted), "no \(wanted) section")
        }
    }

    @Test func everyFilterKey() {
        let filter = Self.sections()["FILTER LANGUAGE"] ?? ""
        let help = run([DaemonProcess.binary, "help", "filter"]).output
        for key in FilterKey.allCases {
            #expect(filter.contains("\(key.rawValue):"), "filter key \(key.rawValue) missing from the man page")
            #expect(help.contains("  \(key.rawValue):"), "filter key \(key.rawValue) missing from 'photofs help filter'")
        }
        for value in FilterMediaType.allCases { #expect(filter.contains(value.rawValue)) }
    }

    /// The name of a picker command's case; the switch has no default, so a new command
    /// breaks the build here until it is listed in `allPickerCommands` too.
    static func caseName(_ command: PickerCommand) -> String {
        switch command {
        case .appAdd: "appAdd"
        case .appSet: "appSet"
        case .appRemove: "appRemove"
        case .select: "select"
        case .selectWhere: "selectWhere"
        case .deselect: "deselect"
        case .clear: "clear"
        case .selectWith: "selectWith"
        case .selectWhereWith: "selectWhereWith"
        case .selectRule: "selectRule"
        case .deselectRule: "deselectRule"
        case .onceBegin: "onceBegin"
        case .onceEnd: "onceEnd"
        }
    }

    static let allPickerCommands: Set = [
        "appAdd", "appSet", "appRemove", "select", "selectWhere", "deselect", "clear", "selectWith", "selectWhereWith", "selectRule",
        "deselectRule", "onceBegin", "onceEnd",
    ]

    @Test func everyPickerCommandWithAnExampleThePickerAccepts() throws {
        let picker = Self.sections()["PICKER LANGUAGE"] ?? ""
        let help = run([DaemonProcess.binary, "help", "picker"]).output
        let examples = picker.split(separator: "\n").filter { $0.hasPrefix("echo ") && $0.hasSuffix(" > MOUNTPOINT/.picker") }.map(
            String.init)
        #expect(examples.count == Self.allPickerCommands.count)
        var covered = Set<String>()
        for example in examples {
            #expect(help.contains("  " + example), "'photofs help picker' lacks: \(example)")
            // What the shell would write to .picker, parsed by the picker's parser.
            let written = run(["/bin/sh", "-c", String(example.dropLast(" > MOUNTPOINT/.picker".count))]).output
            let statements = try PickerCommandParser.parse(written)
            #expect(statements.count == 1, "\(example)")
            covered.formUnion(statements.map { Self.caseName($0.command) })
        }
        #expect(covered == Self.allPickerCommands)
        for synopsis in [
            "app add NAME", "app set NAME", "app remove NAME", "select APP TARGET...", "select APP --where FILTER", "deselect APP",
            "clear APP",
        ] {
            #expect(picker.contains(synopsis), "\(synopsis)")
        }
    }

    /// What an app author needs: every item of a request with its default, examples the
    /// daemon's request parser accepts (and whose items cover every item), the answers an
    /// app reads, the errors a write gives, and the owner's `.requests`.
    @Test func theRequestFileForAppAuthors() throws {
        let section = Self.sections()["REQUEST FILE"] ?? ""
        for item in ["media=M", "limit=N", "ordered, ordered=no", "mode=add, mode=replace", "timeout=S"] {
            #expect(section.contains(item), "\(item)")
        }
        for word in ["selected N", "'cancelled'", "'expired'", "EINVAL", "EBUSY", "EDQUOT", "EAGAIN", ".requests", "id=3 app=editor"] {
            #expect(section.contains(word), "\(word)")
        }
        let examples = section.split(separator: "\n").filter { $0.hasPrefix("echo '") && $0.hasSuffix("> \"$PHOTOFS_DIR/.request\"") }
        #expect(examples.count >= 3)
        var keys = Set<String>()
        for example in examples {
            let written = run(["/bin/sh", "-c", String(example.split(separator: ">").first!)]).output
            let request = try PickRequestParser.parse(written)
            keys.formUnion(written.split(whereSeparator: { " ;\n".contains($0) }).map { String($0.split(separator: "=").first!) })
            #expect(try PickRequestParser.parse(request.description) == request, "\(example)")
        }
        #expect(keys == ["media", "limit", "ordered", "mode", "timeout"], "the examples use every item: \(keys)")
    }

    /// The option patterns of the helper script's `case $option in` block.
    static func helperPatterns() throws -> [String] {
        let script = try String(contentsOfFile: IntegrationLibrary.mountScripts + "/mount.fuse.photofs", encoding: .utf8)
        let block =
            script.components(separatedBy: "    case $option in\n").dropFirst().first?.components(separatedBy: "    esac").first ?? ""
        var patterns: [String] = []
        for line in block.split(separator: "\n") {
            // A pattern line: words separated by '|', up to the ')' that ends the patterns.
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("\""), !trimmed.hasPrefix("set "), !trimmed.hasPrefix("{"), !trimmed.hasPrefix("fail"),
                !trimmed.hasPrefix("fuse="), !trimmed.hasPrefix("IFS")
            else { continue }
            let head = trimmed.split(separator: ")", maxSplits: 1).first.map(String.init) ?? ""
            let words = head.split(separator: "|").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \\")) }
            patterns += words.filter { !$0.isEmpty && $0 != "''" && $0 != "*" }
        }
        return patterns
    }

    @Test func everyMountHelperOptionBothWays() throws {
        // The option words: the `.B` line after each `.TP` of the section.
        let roff = run([DaemonProcess.binary, "man"]).output
        let section = roff.components(separatedBy: ".SH MOUNT OPTIONS\n").last?.components(separatedBy: "\n.SH ").first ?? ""
        let lines = section.split(separator: "\n").map(String.init)
        let listed = Set(
            zip(lines, lines.dropFirst()).filter { $0.0 == ".TP" && $0.1.hasPrefix(".B ") }
                .flatMap { ManPageTests.plain(String($0.1.dropFirst(3))).split(separator: " ").map(String.init) })
        let patterns = try Self.helperPatterns()
        #expect(patterns.count >= 40, "\(patterns)")
        for pattern in patterns {
            // `catalog=?*` in the script is `catalog=PATH` on the page.
            let name = pattern.hasSuffix("=?*") ? String(pattern.dropLast(2)) : pattern
            #expect(
                listed.contains { $0 == name || ($0.hasPrefix(name) && name.hasSuffix("=")) },
                "the helper takes \(pattern); the man page lacks it")
        }
        // Each listed option, with a sample value, is accepted by the helper (fake mode).
        let helper = IntegrationLibrary.mountScripts + "/mount.fuse.photofs"
        #expect(listed.count >= 40, "\(listed.sorted())")
        for option in listed.sorted() {
            let sample = option.replacingOccurrences(of: "=PATH", with: "=/x").replacingOccurrences(of: "=LEVEL", with: "=debug")
                .replacingOccurrences(of: "*", with: "y")
            let result = run(["/usr/bin/env", "PHOTOFS_BIN=\(DaemonProcess.binary)", "/bin/sh", helper, "/l", "/m", "-f", "-o", sample])
            #expect(result.status == 0, "the man page lists \(option); the helper says: \(result.output)")
        }
    }

    @Test func everyEnvironmentVariableTheSourcesRead() throws {
        let environment = Self.sections()["ENVIRONMENT"] ?? ""
        let sources = IntegrationLibrary.packageRoot + "/Sources"
        let grep = run(["/bin/sh", "-c", "grep -rhoE 'variables\\[\"[A-Z_]+\"\\]|environment\\[\"[A-Z_]+\"\\]' '\(sources)' | sort -u"])
        let names = grep.output.split(separator: "\n").compactMap { $0.split(separator: "\"").dropFirst().first.map(String.init) }
        #expect(names.contains("PHOTOFS_LIBRARY") && names.contains("XDG_DATA_HOME"), "\(grep.output)")
        for name in names { #expect(environment.contains(name + "\n"), "the sources read $\(name); ENVIRONMENT lacks it") }
        for name in ["PHOTOFS_BIN", "NOTIFY_SOCKET"] { #expect(environment.contains(name)) }
        let help = run([DaemonProcess.binary, "help", "environment"]).output
        for name in names { #expect(help.contains("  " + name + "\n")) }
    }

    @Test func everyExitCodeAndTheHelpersCodes() {
        let status = Self.sections()["EXIT STATUS"] ?? ""
        for code in 0...5 { #expect(status.contains("\(code)  "), "exit code \(code)") }
        #expect(status.contains("32 the mount failed"))
    }
}
