import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs pick APP --terminal` driven through tmux (`send-keys`, `capture-pane`) on its
/// own tmux server socket, answering a request an app waits on inside `photofs run`.
@Suite("Terminal picker through tmux", .serialized, .enabled(if: TerminalPickerAvailability.available))
struct TerminalPickerTests {
    @Test func typeToFilterToggleInOrderLimitAndEnterAdds() throws {
        try RequestFileTests.withMount { library, home in
            let picker = try TmuxPicker(library, name: "limit", answeringAppIn: home, limit: 2)
            defer { picker.close() }
            let first = picker.screen { $0.contains("Filter:") }
            #expect(first.contains("Choose photos for editor: up to 2, location removed"), "\(first)")
            // Photos whose file name is unique in the library (and not the one already shared).
            let names = library.assets.map { String($0.path.split(separator: "/").last!) }
            let unique = (1..<names.count).filter { index in names.filter { $0 == names[index] }.count == 1 && !names[index].contains(" ") }
                .map { names[$0] }
            try #require(unique.count >= 3, "\(names)")
            // Filter as you type: a name narrows the list to its photo; Space picks it.
            for (number, target) in unique.prefix(3).enumerated() {
                picker.type(target)
                let filtered = picker.screen { $0.contains("Filter: \(target)_") && $0.contains("1 shown") }
                #expect(filtered.contains("1 shown"), "\(filtered)")
                picker.press("Space")
                if number < 2 {
                    #expect(picker.screen { $0.contains("[\(number + 1)]") }.contains("[\(number + 1)]  "))
                } else {
                    let full = picker.screen { $0.contains("Select up to 2.") }
                    #expect(full.contains("Select up to 2.") && full.contains("[ ]  "), "\(full)")
                }
                for _ in target { picker.press("BSpace") }
                _ = picker.screen { $0.contains("Filter: _") }
            }
            let target = unique[0]
            picker.press("Enter")
            let done = picker.screen { $0.contains("EXIT=") }
            #expect(done.contains("Added 2 photos to editor.") && done.contains("EXIT=0"), "\(done)")
            #expect(picker.app?.wait(timeout: 20) == 0)
            let output = picker.app?.output ?? ""
            let answer = output.split(separator: "\n").map(String.init)
            #expect(answer.count == 3 && answer[0] == "selected 2", "\(output)")
            #expect(answer.count == 3 && answer[1].hasPrefix(String(target.split(separator: ".").first!)), "\(output)")
        }
    }

    /// The web picker's search language, with a space typed in the search field (Tab), and
    /// the Folders list (Ctrl-F) whose Enter searches a folder.
    @Test func searchTakesWordsWithSpacesAndFoldersOpenTheirPhotos() throws {
        try RequestFileTests.withMount { library, home in
            let picker = try TmuxPicker(library, name: "words", answeringAppIn: home, limit: 2)
            defer { picker.close() }
            // Two plain words: a word of a photo's folder and its file name's stem.
            let paths = library.assets.map { $0.path.lowercased() }
            let target = try #require(
                paths.first { $0.contains("/") && $0.split(separator: "/").dropLast().last?.contains(" ") == true }
                    ?? paths.first { $0.contains("/") })
            let folderWord = String(target.split(separator: "/").dropLast().last!.split(separator: " ").first!)
            let stem = String(target.split(separator: "/").last!.split(separator: ".").first!)
            let query = folderWord + " " + stem
            let expected = paths.filter { $0.contains(folderWord) && $0.contains(stem) }.count
            picker.press("Tab")
            picker.type(query)
            let typed = picker.screen { $0.contains("[Search: \(query)_]") }
            #expect(typed.contains("[Search: \(query)_]") && typed.contains("(\(expected) shown"), "\(query): \(typed)")
            picker.press("Enter")
            let listed = picker.screen { $0.contains("Filter: \(query)_") }
            #expect(listed.contains("Filter: \(query)_"), "\(listed)")
            // A filter term's error shows its column; a term and a word together work.
            picker.press("Tab")
            picker.type(" taken:20x")
            let wrong = picker.screen { $0.contains("^ ") }
            #expect(wrong.contains("(0 shown") && wrong.contains("taken"), "\(wrong)")
            for _ in 0..<10 { picker.press("BSpace") }
            picker.press("Enter")
            _ = picker.screen { $0.contains("Filter: \(query)_") }
            // Folders: every folder with its count (its sub-folders included) and a cover.
            var counts: [String: Int] = [:]
            for asset in library.assets {
                var parts = asset.path.split(separator: "/").dropLast()
                while !parts.isEmpty {
                    counts[parts.joined(separator: "/"), default: 0] += 1
                    parts = parts.dropLast()
                }
            }
            picker.press("C-f")
            let folders = picker.screen { $0.contains("Folders of the library") }
            #expect(folders.contains("Folders of the library (\(counts.count))"), "\(folders)")
            for (path, count) in counts {
                let line = folders.split(separator: "\n").first { $0.dropFirst(2).hasPrefix(path + " ") }
                #expect(
                    line?.contains(count == 1 ? "1 photo " : "\(count) photos") == true && line?.contains("cover ") == true,
                    "\(path): \(folders)")
            }
            let sorted = counts.keys.sorted()
            let chosen = sorted.last!
            for _ in 0..<(sorted.count - 1) { picker.press("Down") }
            picker.press("Enter")
            let opened = picker.screen { $0.contains("Filter: folder:") }
            #expect(opened.contains("Filter: folder:'\(chosen)'_") && opened.contains("(\(counts[chosen]!) shown"), "\(opened)")
            picker.press("Escape")
            #expect(picker.screen { $0.contains("EXIT=") }.contains("EXIT=0"))
            #expect(picker.app?.wait(timeout: 20) == 0)
            #expect(picker.app?.output == "cancelled\n")
        }
    }

    /// Without a request the choice replaces the grants: an Enter that takes photos away asks
    /// first, and n changes nothing.
    @Test func anAddThatRemovesGrantsAsksFirst() throws {
        try RequestFileTests.withMount { library, _ in
            let picker = try TmuxPicker(library, name: "remove")
            defer { picker.close() }
            // Find the one granted photo by its whole path (quoted: it may hold a space) and unpick it.
            picker.press("Tab")
            picker.type("\"\(library.assets[0].path)\"")
            picker.press("Enter")
            let found = picker.screen { $0.contains("(1 shown, 1 chosen") }
            #expect(found.contains("[1]"), "\(found)")
            picker.press("Space", "Enter")
            let asked = picker.screen { $0.contains("(y/n)") }
            #expect(asked.contains("Remove 1 photo from editor? (y/n)"), "\(asked)")
            picker.press("n")
            #expect(picker.screen { $0.contains("Nothing changed.") }.contains("Nothing changed."))
            #expect(IntegrationLibrary.names(library.mountpoint + "/apps/editor").count == 1)
            picker.press("Enter")
            _ = picker.screen { $0.contains("(y/n)") }
            picker.press("y")
            let done = picker.screen { $0.contains("EXIT=") }
            #expect(done.contains("EXIT=0"), "\(done)")
            #expect(IntegrationLibrary.names(library.mountpoint + "/apps/editor").isEmpty)
        }
    }

    @Test func escapeCancels() throws {
        try RequestFileTests.withMount { library, home in
            let picker = try TmuxPicker(library, name: "esc", answeringAppIn: home, limit: 1)
            defer { picker.close() }
            picker.press("Space", "Escape")
            let done = picker.screen { $0.contains("EXIT=") }
            #expect(done.contains("Cancelled") && done.contains("EXIT=0"), "\(done)")
            #expect(picker.app?.wait(timeout: 20) == 0)
            #expect(picker.app?.output == "cancelled\n")
            #expect(IntegrationLibrary.names(library.mountpoint + "/apps/editor").count == 1)
        }
    }
}

enum TerminalPickerAvailability {
    static var tmux: String { IntegrationLibrary.program("tmux") ?? "/usr/bin/tmux" }

    static var available: Bool {
        guard SandboxAvailability.available else { return false }
        if IntegrationLibrary.program("tmux") == nil {
            return Skip.unless(false, "terminal picker test: tmux is not installed (mount-scripts/install-deps installs it)")
        }
        return true
    }
}
