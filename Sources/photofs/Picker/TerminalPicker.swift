import PhotoCore
import PickerServer
import SystemKit

/// `photofs pick APP --terminal`: the picker for a session without a browser. A list (date,
/// camera, name, size) searched as you type, with the web picker's language (`PickerQuery`:
/// plain words and filter terms); arrows move, Space toggles in order (numbered), the limit
/// is enforced, Enter adds, Esc cancels. Tab edits the search field, where Space is a space;
/// Ctrl-F shows the library's folders (count and cover), Enter on one searches it. An Add
/// that takes photos away from the app asks first.
struct TerminalPicker {
    let setup: PickerSetup
    let actions: PickerActions
    let output: Output

    /// One row of the list.
    private struct Row {
        let id: AssetID
        let text: String
        let search: String
        let asset: Asset
    }

    private struct State {
        var query = ""
        var cursor = 0
        var top = 0
        var selected: [AssetID] = []
        var message = ""
        /// Whether keys go to the search field (Tab) rather than the list.
        var editing = false
        /// Whether the folder list is shown (Ctrl-F).
        var folders = false
        /// The question an Add that removes grants asks, while it waits for y or n.
        var asking: String?
    }

    func run() throws(CLIError) -> ExitCode {
        guard Terminal.isTerminal(.standardInput) else { throw .usage("--terminal needs a terminal on stdin.") }
        // Printed once the terminal is back to normal.
        switch interact() {
        case .success(let text):
            output.line(text)
            return .success
        case .failure(let refusal):
            output.error(refusal.reason)
            return .failure
        }
    }

    private func interact() -> Result<String, PickerRefusal> {
        let saved = Terminal.enterKeyMode(.standardInput)
        output.out("\u{1B}[?1049h\u{1B}[?25l")
        defer {
            output.out("\u{1B}[?25h\u{1B}[?1049l")
            Terminal.restore(saved)
        }
        // A Live Photo or a RAW+JPEG pair is one line, badged, as it is one tile on the page;
        // Add grants every part offered (`PickerActions.add`).
        let groups = setup.groupTiles()
        let rows = setup.candidates.filter { !groups.hidden.contains($0.id) }.map { asset -> Row in
            let name = asset.path.display.split(separator: "/").last.map(String.init) ?? asset.path.display
            let date = asset.effectiveDate
            let day = digits(date.year, 4) + "-" + digits(date.month, 2) + "-" + digits(date.day, 2)
            let camera = [asset.metadata.make, asset.metadata.model].compactMap { $0 }.joined(separator: " ")
            let badge = groups.tiles[asset.id].map { "  " + $0.group.badge } ?? ""
            let text = day + "  " + Self.pad(camera, 24) + "  " + Self.pad(name, 36) + "  " + Self.size(asset.size) + badge
            return Row(id: asset.id, text: text, search: PickerQuery.searchText(of: asset), asset: asset)
        }
        let folders = setup.folders()
        let names = Dictionary(rows.map { ($0.id, $0.asset.path.display) }, uniquingKeysWith: { first, _ in first })
        var state = State()
        if setup.mode == .replace { state.selected = setup.preselected.filter { id in rows.contains { $0.id == id } } }
        var shownQuery = ""
        var visible = rows
        while true {
            if state.query != shownQuery {
                do throws(FilterError) {
                    let query = try PickerQuery(state.query)
                    visible = rows.filter { query.matches($0.asset, text: $0.search) }
                    if state.message.hasPrefix("search: ") { state.message = "" }
                } catch {
                    visible = []
                    state.message = "search: " + String(repeating: " ", count: max(0, error.position)) + "^ " + error.description
                }
                shownQuery = state.query
            }
            let count = state.folders ? folders.count : visible.count
            state.cursor = max(0, min(state.cursor, count - 1))
            if state.folders {
                drawFolders(folders, names: names, &state)
            } else {
                draw(visible, &state)
            }
            let key = readKey()
            if state.asking != nil {
                state.asking = nil
                guard case .character(let answer) = key, answer == "y" || answer == "Y" else {
                    state.message = "Nothing changed."
                    continue
                }
                switch actions.add(state.selected, setup: setup) {
                case .success(let text): return .success(text)
                case .failure(let refusal): state.message = refusal.reason
                }
                continue
            }
            if state.editing {
                switch key {
                case .enter, .tab, .down, .up: state.editing = false
                case .escape: state.editing = false
                case .space: state.query.append(" ")
                case .backspace: if !state.query.isEmpty { state.query.removeLast() }
                case .character(let character): state.query.append(character)
                case .end: return actions.cancel(setup: setup)
                case .folders, .other: break
                }
                state.cursor = 0
                continue
            }
            if state.folders {
                switch key {
                case .up: state.cursor -= 1
                case .down: state.cursor += 1
                case .escape, .folders, .tab: state.folders = false
                case .enter:
                    if state.cursor < folders.count { state.query = PickerSetup.folderTerm(folders[state.cursor].path) }
                    state.folders = false
                    state.cursor = 0
                case .end: return actions.cancel(setup: setup)
                default: break
                }
                continue
            }
            switch key {
            case .escape, .end:
                return actions.cancel(setup: setup)
            case .enter:
                let ids = setup.mode == .add ? state.selected.filter { !setup.preselected.contains($0) } : state.selected
                let summary = GrantSummary(setup: setup, ids: ids)
                if summary.removes {
                    state.asking = summary.question
                    continue
                }
                switch actions.add(ids, setup: setup) {
                case .success(let text): return .success(text)
                case .failure(let refusal): state.message = refusal.reason
                }
            case .up: state.cursor -= 1
            case .down: state.cursor += 1
            case .tab: state.editing = true
            case .folders:
                state.folders = true
                state.cursor = 0
            case .space:
                guard state.cursor < visible.count else { break }
                let id = visible[state.cursor].id
                if setup.mode == .add, setup.preselected.contains(id) {
                    state.message = "already shared with \(setup.app.name)"
                } else if let index = state.selected.firstIndex(of: id) {
                    state.selected.remove(at: index)
                    state.message = ""
                } else if let limit = setup.limit, state.selected.count >= limit {
                    state.message = "Select up to \(limit)."
                } else {
                    state.selected.append(id)
                    state.message = ""
                }
            case .backspace:
                if !state.query.isEmpty { state.query.removeLast() }
                state.cursor = 0
            case .character(let character):
                state.query.append(character)
                state.cursor = 0
            case .other: break
            }
        }
    }

    private func drawFolders(_ folders: [PickerFolder], names: [AssetID: String], _ state: inout State) {
        let listHeight = screenHeight() - 4
        if state.cursor < state.top { state.top = state.cursor }
        if state.cursor >= state.top + listHeight { state.top = state.cursor - listHeight + 1 }
        var screen = "\u{1B}[H\u{1B}[2J"
        screen += "Folders of the library (\(folders.count)): Enter shows a folder's photos, Esc goes back\r\n\r\n"
        if folders.isEmpty { screen += "  No folders: every photo is at the top of the library.\r\n" }
        for index in state.top..<min(folders.count, state.top + listHeight) {
            let folder = folders[index]
            let cover = names[folder.cover].map { "cover " + ($0.split(separator: "/").last.map(String.init) ?? $0) } ?? ""
            let line =
                (index == state.cursor ? "> " : "  ") + Self.pad(folder.path, 48) + "  " + Self.pad(GrantSummary.photos(folder.count), 12)
                + "  " + cover
            screen += (index == state.cursor ? "\u{1B}[7m" + line + "\u{1B}[0m" : line) + "\r\n"
        }
        output.out(screen)
    }

    private func screenHeight() -> Int {
        guard let rows = Terminal.rows(of: .standardOutput), rows > 6 else { return 24 }
        return rows
    }

    private func draw(_ visible: [Row], _ state: inout State) {
        let listHeight = screenHeight() - 5
        if state.cursor < state.top { state.top = state.cursor }
        if state.cursor >= state.top + listHeight { state.top = state.cursor - listHeight + 1 }
        let limit = setup.limit.map { "up to \($0)" } ?? "any number"
        var screen = "\u{1B}[H\u{1B}[2J"
        let title = setup.title.map { " (\($0))" } ?? ""
        screen +=
            "Choose photos for \(setup.app.name)\(title): \(limit), \(setup.receives)\(setup.media.isEmpty ? "" : ", " + setup.media)\r\n"
        let field = state.editing ? "[Search: \(state.query)_]" : "Filter: \(state.query)_"
        let keys =
            state.editing ? "typing; Enter or Tab returns to the list" : "Space toggles, Enter adds, Esc cancels, Tab edits, ^F folders"
        screen += "\(field)   (\(visible.count) shown, \(state.selected.count) chosen; \(keys))\r\n"
        let note = setup.newApp ? "\(setup.app.name) is new to photofs: added with location removed. " : ""
        screen += note + (state.asking.map { $0 + " (y/n)" } ?? state.message) + "\r\n"
        for index in state.top..<min(visible.count, state.top + listHeight) {
            let row = visible[index]
            let mark: String
            if let position = state.selected.firstIndex(of: row.id) {
                mark = setup.ordered ? Self.pad("[\(position + 1)]", 5) : "[x]  "
            } else if setup.mode == .add, setup.preselected.contains(row.id) {
                mark = "[=]  "
            } else {
                mark = "[ ]  "
            }
            let line = (index == state.cursor ? "> " : "  ") + mark + row.text
            screen += (index == state.cursor ? "\u{1B}[7m" + line + "\u{1B}[0m" : line) + "\r\n"
        }
        output.out(screen)
    }

    private enum Key {
        case up, down, space, enter, escape, backspace, tab, folders, end, other
        case character(Character)
    }

    /// One key press; an Escape alone is told from an arrow's escape sequence by the bytes
    /// that follow within 50 ms.
    private func readKey() -> Key {
        var buffer: [UInt8] = [0]
        let input = FileDescriptor.standardInput
        guard (try? input.read(into: &buffer)) == 1 else { return .end }
        let byte = buffer[0]
        switch byte {
        case 0x1B:
            guard (try? input.waitReadable(milliseconds: 50)) == .ready else { return .escape }
            var sequence = [UInt8](repeating: 0, count: 2)
            let count = try? input.read(into: &sequence)
            if count == 2, sequence[0] == UInt8(ascii: "[") {
                if sequence[1] == UInt8(ascii: "A") { return .up }
                if sequence[1] == UInt8(ascii: "B") { return .down }
            }
            return .other
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x06: return .folders
        case 0x20: return .space
        case 0x7F, 0x08: return .backspace
        case 0x21...0x7E: return .character(Character(UnicodeScalar(byte)))
        default: return .other
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        let cut = text.count > width ? String(text.prefix(width - 1)) + "~" : text
        return cut + String(repeating: " ", count: max(0, width - cut.count))
    }

    private static func size(_ bytes: Int64) -> String {
        if bytes >= 1_000_000 { return "\(bytes / 1_000_000).\(bytes % 1_000_000 / 100_000) MB" }
        if bytes >= 1000 { return "\(bytes / 1000) kB" }
        return "\(bytes) B"
    }
}

/// Zero-padded decimal digits.
private func digits(_ value: Int, _ width: Int) -> String {
    let text = "\(value)"
    return String(repeating: "0", count: max(0, width - text.count)) + text
}
