import Foundation
import Glibc
import Testing

/// File names are bytes, and so are the CLI's arguments: `photofs show` and `select` of a
/// file whose name is not UTF-8, given on the command line as its raw bytes.
@Suite("CLI arguments that are not UTF-8", .serialized, .enabled(if: DaemonProcess.binaryExists))
struct RawArgumentTests {
    @Test func showAndSelectTakeANameThatIsNotUTF8() throws {
        let library = try IntegrationLibrary(count: 2, prefix: "photofs-rawarg")
        defer { library.remove() }
        // A copy of a generated photo under the name "bad\xff.jpg".
        let source = library.library + "/" + library.assets[0].path
        let copied = run(["/bin/sh", "-c", "cp \"$1\" \"$2/$(printf 'bad\\377.jpg')\"", "sh", source, library.library])
        try #require(copied.status == 0, "\(copied.output)")
        try library.photofs(["index", "--quiet", library.library])
        try library.photofs(["app", "add", "editor"])
        func photofs(_ words: String) -> (status: Int32, output: String) {
            run(["/bin/sh", "-c", "\"$1\" \(words) --catalog \"$2\"", "sh", DaemonProcess.binary, library.catalog])
        }
        let shown = photofs("show --json \"$(printf 'bad\\377.jpg')\"")
        #expect(shown.status == 0, "show: \(shown.output)")
        #expect(shown.output.contains("bad\\\\xff.jpg") || shown.output.contains("bad"), "\(shown.output)")
        // The near miss (U+FFFD, what a lossy decoding makes of it) is not that file.
        #expect(photofs("show \"$(printf 'bad\\357\\277\\275.jpg')\"").status == 4)
        let selected = photofs("select editor \"$(printf 'bad\\377.jpg')\"")
        #expect(selected.status == 0, "select: \(selected.output)")
        let listed = photofs("app list --json")
        let apps = try? JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]]
        #expect(apps?.first?["selected"] as? Int == 1, "\(listed.output)")
    }
}
