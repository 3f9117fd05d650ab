import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs pick APP --terminal` driven through tmux (`send-keys`, `capture-pane`) on its
/// own tmux server socket, answering a request an app waits on inside `photofs run`.
@Suite("Terminal picker through tmux", .serialized, .enabled(if: TerminalPickerAvailability.available))
struct TerminalPickerTests {
    /// Runs `tmux -L SOCKET ARGS`.
    static func tmux(_ socket: String, _ arguments: [String]) -> (status: Int32, output: String) {
        run([TerminalPickerAvailability.tmux, "-L", socket] + arguments)
    }

    /// The pane's text once `condition` holds (or after 15 s).
    static func screen(_ socket: String, until condition: (String) -> Bool) -> String {
        var text = ""
        for _ in 0..<300 {
            text = tmux(socket, ["capture-pane", "-p", "-t", "pick"]).output
            if condition(text) { return text }
            usleep(50_000)
        }
        return text
    }

    static func session(_ library: IntegrationLibrary, socket: String) throws {
        let command = "\(DaemonProcess.binary) pick editor --terminal --catalog \(library.catalog); echo EXIT=$?; sleep 30"
        try IntegrationLibrary.check(tmux(socket, ["new-session", "-d", "-s", "pick", "-x", "140", "-y", "30", command]))
    }

    @Test func typeToFilterToggleInOrderLimitAndEnterAdds() throws {
        try RequestFileTests.withMount { library, home in
            let socket = "photofs-test-\(getpid())"
            defer { _ = Self.tmux(socket, ["kill-server"]) }
            let app = try RequestFileTests.app(
                library, home: home, "echo limit=2 > \"$PHOTOFS_DIR/.request\"; cat \"$PHOTOFS_DIR/.request\"", name: "app")
            defer { app.stop() }
            #expect(RequestFileTests.pendingLines(library.mountpoint).count == 1)
            try Self.session(library, socket: socket)
            let first = Self.screen(socket) { $0.contains("Filter:") }
            #expect(first.contains("Choose photos for editor: up to 2, location removed"), "\(first)")
            // Photos whose file name is unique in the library (and not the one already shared).
            let names = library.assets.map { String($0.path.split(separator: "/").last!) }
            let unique = (1..<names.count).filter { index in names.filter { $0 == names[index] }.count == 1 && !names[index].contains(" ") }
                .map { names[$0] }
            try #require(unique.count >= 3, "\(names)")
            // Filter as you type: a name narrows the list to its photo; Space picks it.
            for (number, target) in unique.prefix(3).enumerated() {
                _ = Self.tmux(socket, ["send-keys", "-t", "pick", "-l", target])
                let filtered = Self.screen(socket) { $0.contains("Filter: \(target)_") && $0.contains("1 shown") }
                #expect(filtered.contains("1 shown"), "\(filtered)")
                _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Space"])
                if number < 2 {
                    #expect(Self.screen(socket) { $0.contains("[\(number + 1)]") }.contains("[\(number + 1)]  "))
                } else {
                    let full = Self.screen(socket) { $0.contains("Select up to 2.") }
                    #expect(full.contains("Select up to 2.") && full.contains("[ ]  "), "\(full)")
                }
                for _ in target { _ = Self.tmux(socket, ["send-keys", "-t", "pick", "BSpace"]) }
                _ = Self.screen(socket) { $0.contains("Filter: _") }
            }
            let target = unique[0]
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Enter"])
            let done = Self.screen(socket) { $0.contains("EXIT=") }
            #expect(done.contains("Added 2 photos to editor.") && done.contains("EXIT=0"), "\(done)")
            #expect(app.wait(timeout: 20) == 0)
            let answer = app.output.split(separator: "\n").map(String.init)
            #expect(answer.count == 3 && answer[0] == "selected 2", "\(app.output)")
            #expect(answer.count == 3 && answer[1].hasPrefix(String(target.split(separator: ".").first!)), "\(app.output)")
        }
    }

    /// The web picker's search language, with a space typed in the search field (Tab), and
    /// the Folders list (Ctrl-F) whose Enter searches a folder.
    @Test func searchTakesWordsWithSpacesAndFoldersOpenTheirPhotos() throws {
        try RequestFileTests.withMount { library, home in
            let socket = "photofs-test-words-\(getpid())"
            defer { _ = Self.tmux(socket, ["kill-server"]) }
            let app = try RequestFileTests.app(
                library, home: home, "echo limit=2 > \"$PHOTOFS_DIR/.request\"; cat \"$PHOTOFS_DIR/.request\"", name: "app")
            defer { app.stop() }
            #expect(RequestFileTests.pendingLines(library.mountpoint).count == 1)
            try Self.session(library, socket: socket)
            _ = Self.screen(socket) { $0.contains("Filter:") }
            // Two plain words: a word of a photo's folder and its file name's stem.
            let paths = library.assets.map { $0.path.lowercased() }
            let target = try #require(
                paths.first { $0.contains("/") && $0.split(separator: "/").dropLast().last?.contains(" ") == true }
                    ?? paths.first { $0.contains("/") })
            let folderWord = String(target.split(separator: "/").dropLast().last!.split(separator: " ").first!)
            let stem = String(target.split(separator: "/").last!.split(separator: ".").first!)
            let query = folderWord + " " + stem
            let expected = paths.filter { $0.contains(folderWord) && $0.contains(stem) }.count
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Tab"])
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "-l", query])
            let typed = Self.screen(socket) { $0.contains("[Search: \(query)_]") }
            #expect(typed.contains("[Search: \(query)_]") && typed.contains("(\(expected) shown"), "\(query): \(typed)")
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Enter"])
            let listed = Self.screen(socket) { $0.contains("Filter: \(query)_") }
            #expect(listed.contains("Filter: \(query)_"), "\(listed)")
            // A filter term's error shows its column; a term and a word together work.
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Tab"])
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "-l", " taken:20x"])
            let wrong = Self.screen(socket) { $0.contains("^ ") }
            #expect(wrong.contains("(0 shown") && wrong.contains("taken"), "\(wrong)")
            for _ in 0..<10 { _ = Self.tmux(socket, ["send-keys", "-t", "pick", "BSpace"]) }
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Enter"])
            _ = Self.screen(socket) { $0.contains("Filter: \(query)_") }
            // Folders: every folder with its count (its sub-folders included) and a cover.
            var counts: [String: Int] = [:]
            for asset in library.assets {
                var parts = asset.path.split(separator: "/").dropLast()
                while !parts.isEmpty {
                    counts[parts.joined(separator: "/"), default: 0] += 1
                    parts = parts.dropLast()
                }
            }
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "C-f"])
            let folders = Self.screen(socket) { $0.contains("Folders of the library") }
            #expect(folders.contains("Folders of the library (\(counts.count))"), "\(folders)")
            for (path, count) in counts {
                let line = folders.split(separator: "\n").first { $0.dropFirst(2).hasPrefix(path + " ") }
                #expect(
                    line?.contains(count == 1 ? "1 photo " : "\(count) photos") == true && line?.contains("cover ") == true,
                    "\(path): \(folders)")
            }
            let sorted = counts.keys.sorted()
            let chosen = sorted.last!
            for _ in 0..<(sorted.count - 1) { _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Down"]) }
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Enter"])
            let opened = Self.screen(socket) { $0.contains("Filter: folder:") }
            #expect(opened.contains("Filter: folder:'\(chosen)'_") && opened.contains("(\(counts[chosen]!) shown"), "\(opened)")
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Escape"])
            #expect(Self.screen(socket) { $0.contains("EXIT=") }.contains("EXIT=0"))
            #expect(app.wait(timeout: 20) == 0)
            #expect(app.output == "cancelled\n")
        }
    }

    /// Without a request the choice replaces the grants: an Enter that takes photos away asks
    /// first, and n changes nothing.
    @Test func anAddThatRemovesGrantsAsksFirst() throws {
        try RequestFileTests.withMount { library, _ in
            let socket = "photofs-test-remove-\(getpid())"
            defer { _ = Self.tmux(socket, ["kill-server"]) }
            try Self.session(library, socket: socket)
            _ = Self.screen(socket) { $0.contains("Filter:") }
            // Find the one granted photo by its whole path (quoted: it may hold a space) and unpick it.
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Tab"])
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "-l", "\"\(library.assets[0].path)\""])
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Enter"])
            let found = Self.screen(socket) { $0.contains("(1 shown, 1 chosen") }
            #expect(found.contains("[1]"), "\(found)")
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Space", "Enter"])
            let asked = Self.screen(socket) { $0.contains("(y/n)") }
            #expect(asked.contains("Remove 1 photo from editor? (y/n)"), "\(asked)")
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "n"])
            #expect(Self.screen(socket) { $0.contains("Nothing changed.") }.contains("Nothing changed."))
            #expect(IntegrationLibrary.names(library.mountpoint + "/apps/editor").count == 1)
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Enter"])
            _ = Self.screen(socket) { $0.contains("(y/n)") }
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "y"])
            let done = Self.screen(socket) { $0.contains("EXIT=") }
            #expect(done.contains("EXIT=0"), "\(done)")
            #expect(IntegrationLibrary.names(library.mountpoint + "/apps/editor").isEmpty)
        }
    }

    @Test func escapeCancels() throws {
        try RequestFileTests.withMount { library, home in
            let socket = "photofs-test-esc-\(getpid())"
            defer { _ = Self.tmux(socket, ["kill-server"]) }
            let app = try RequestFileTests.app(
                library, home: home, "echo limit=1 > \"$PHOTOFS_DIR/.request\"; cat \"$PHOTOFS_DIR/.request\"", name: "app")
            defer { app.stop() }
            #expect(RequestFileTests.pendingLines(library.mountpoint).count == 1)
            try Self.session(library, socket: socket)
            _ = Self.screen(socket) { $0.contains("Filter:") }
            _ = Self.tmux(socket, ["send-keys", "-t", "pick", "Space", "Escape"])
            let done = Self.screen(socket) { $0.contains("EXIT=") }
            #expect(done.contains("Cancelled") && done.contains("EXIT=0"), "\(done)")
            #expect(app.wait(timeout: 20) == 0)
            #expect(app.output == "cancelled\n")
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
