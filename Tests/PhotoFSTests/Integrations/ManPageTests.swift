import Foundation
import Glibc
import Testing

/// `photofs man` and `photofs --help` / `photofs help COMMAND` say the same things: every
/// command, usage line, summary, paragraph and option of the help is in the man page, in
/// the same order, and the man page has no option the help lacks.
@Suite("man page", .enabled(if: DaemonProcess.binaryExists))
struct ManPageTests {
    /// The command names `photofs --help` lists (its "Commands:" block).
    static func commandsInHelp() -> [String] {
        let help = run([DaemonProcess.binary, "--help"]).output
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "Commands:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The man page with roff requests and escapes removed, split at `.SS` sections.
    static func manSections() -> (head: String, sections: [String: (text: String, options: Int)]) {
        let roff = run([DaemonProcess.binary, "man"]).output
        var head = ""
        var sections: [String: (text: String, options: Int)] = [:]
        var current: String?
        for line in roff.split(separator: "\n").map(String.init) {
            if line.hasPrefix(".SS ") {
                current = plain(String(line.dropFirst(4)))
                sections[current!] = ("", 0)
                continue
            }
            if line.hasPrefix(".SH ") { current = nil }
            if line == ".TP", let name = current { sections[name]?.options += 1 }
            if line.hasPrefix(".") { continue }
            if let name = current { sections[name]?.text += plain(line) + "\n" } else { head += plain(line) + "\n" }
        }
        return (head, sections)
    }

    static func plain(_ roff: String) -> String {
        var text = roff
        for (escape, replacement) in [("\\-", "-"), ("\\e", "\\"), ("\\&", ""), ("\\fB", ""), ("\\fI", ""), ("\\fR", ""), ("\\fP", "")] {
            text = text.replacingOccurrences(of: escape, with: replacement)
        }
        return text
    }

    /// Whitespace runs collapsed to one space, ends trimmed.
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    @Test func everyCommandOfTheHelpHasASection() {
        let commands = Self.commandsInHelp()
        #expect(commands.count >= 10)
        let (_, sections) = Self.manSections()
        #expect(Set(sections.keys) == Set(commands))
    }

    @Test func helpOfEachCommandIsInItsSectionInOrder() {
        let (_, sections) = Self.manSections()
        for command in Self.commandsInHelp() {
            let help = run([DaemonProcess.binary, "help", command]).output
            guard let section = sections[command] else {
                Issue.record("no man section for \(command)")
                continue
            }
            let man = Self.collapse(section.text)
            var position = man.startIndex
            var optionLines = 0
            var inOptions = false
            for line in help.split(separator: "\n").map(String.init) {
                if line == "Options:" {
                    inOptions = true
                    continue
                }
                if inOptions { optionLines += 1 }
                var wanted = Self.collapse(line)
                if wanted.hasPrefix("Usage: ") { wanted = String(wanted.dropFirst(7)) }
                guard let found = man.range(of: wanted, range: position..<man.endIndex) else {
                    Issue.record("'photofs help \(command)' line not in the man page (in order): \(wanted)")
                    continue
                }
                position = found.upperBound
            }
            #expect(section.options == optionLines, "options of \(command): man \(section.options), help \(optionLines)")
        }
    }

    @Test func overviewAndExitCodesAgree() {
        let help = run([DaemonProcess.binary, "--help"]).output
        let (head, _) = Self.manSections()
        let man = Self.collapse(head)
        let tagline = help.split(separator: "\n").first.map { Self.collapse(String($0)) } ?? ""
        // "photofs 0.1.0: a photo library ..." in the help is "photofs - a photo library ..." in NAME.
        let description = tagline.split(separator: ":", maxSplits: 1).last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
        #expect(man.contains(String(description.dropLast())), "man NAME differs from the help's first line: \(description)")
        let exitLines = help.split(separator: "\n").drop { $0 != "Exit codes:" }.dropFirst()
        #expect(exitLines.count == 6)
        for line in exitLines { #expect(man.contains(Self.collapse(String(line))), "exit code line missing: \(line)") }
    }

    /// groff reads the page without warnings (when groff is installed).
    @Test(.enabled(if: IntegrationLibrary.program("groff") != nil)) func groffRendersWithoutWarnings() {
        let result = run(["/bin/sh", "-c", "'\(DaemonProcess.binary)' man | groff -man -Tutf8 -ww -z"])
        #expect(result.status == 0)
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "", "\(result.output)")
    }
}
