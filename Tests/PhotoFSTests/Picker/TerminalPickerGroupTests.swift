import Foundation
import Glibc
import TestSupport
import Testing

/// In the terminal picker, as on the page, a Live Photo pair and a RAW+JPEG pair made from
/// corpus files are one line each with their badge; choosing the Live line grants both of
/// its files, which the app then reads through the mount.
@Suite("Groups in the terminal picker", .serialized, .enabled(if: TerminalPickerAvailability.available))
struct TerminalPickerGroupTests {
    @Test func aGroupIsOneBadgedLineAndAddGrantsEveryPart() throws {
        let library = try PickerGroupBrowserTests.libraryWithGroups("TerminalPickerGroupTests", prefix: "photofs-terminal-groups")
        defer { library.remove() }
        let daemon = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        try library.photofs(["app", "add", "editor"])

        let picker = try TmuxPicker(library, name: "groups")
        defer { picker.close() }
        let first = picker.screen { $0.contains("Filter:") }
        #expect(first.contains("(4 shown"), "two generated photos and two groups: \(first)")
        let lines = first.split(separator: "\n").map(String.init)
        let live = lines.filter { $0.contains("IMG_1.") }
        #expect(live.count == 1 && live.first?.contains("IMG_1.HEIC") == true && live.first?.hasSuffix("LIVE") == true, "\(first)")
        let pair = lines.filter { $0.contains("DSC_1.") }
        #expect(pair.count == 1 && pair.first?.hasSuffix("RAW+JPEG") == true, "\(first)")

        picker.type("IMG_1")
        let filtered = picker.screen { $0.contains("(1 shown") }
        #expect(filtered.contains("(1 shown"), "\(filtered)")
        picker.press("Space")
        _ = picker.screen { $0.contains("1 chosen") }
        picker.press("Enter")
        let done = picker.screen { $0.contains("EXIT=") }
        // No request waits: the pick sets what the app has.
        #expect(done.contains("editor now has 2 photos.") && done.contains("EXIT=0"), "\(done)")
        let shown = IntegrationLibrary.names(library.mountpoint + "/apps/editor").sorted()
        #expect(shown.count == 2 && shown.allSatisfy { $0.hasPrefix("IMG_1") }, "\(shown)")
        #expect(Set(shown.compactMap { $0.split(separator: ".").last.map(String.init) }) == ["HEIC", "MOV"], "\(shown)")
    }
}
