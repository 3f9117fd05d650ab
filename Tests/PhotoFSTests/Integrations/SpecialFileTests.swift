import Foundation
import Glibc
import Testing

/// Links, FIFOs, sockets and devices in a library are not assets, and `photofs show` says
/// why (they used to be skipped without a trace: "no asset").
@Suite("special files in a library", .serialized, .enabled(if: DaemonProcess.binaryExists))
struct SpecialFileTests {
    @Test func showSaysWhyASpecialFileIsNotAnAsset() throws {
        let library = try IntegrationLibrary(count: 2, prefix: "photofs-special")
        defer { library.remove() }
        let root = library.library
        let made = run([
            "/bin/sh", "-c",
            "cd \"$1\" && mkfifo fifo.jpg && ln -s \"$2\" link.jpg && python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"sock.jpg\")'"
                + (getuid() == 0 ? " && mknod null.jpg c 1 3" : ""),
            "sh", root, library.assets[0].path,
        ])
        try #require(made.status == 0, "\(made.output)")
        try library.photofs(["index", "--quiet", root])
        var expected = ["fifo.jpg": "FIFO", "link.jpg": "symbolic link, not followed", "sock.jpg": "socket"]
        if getuid() == 0 { expected["null.jpg"] = "character device" }
        for (name, reason) in expected {
            let shown = run([DaemonProcess.binary, "show", name, "--catalog", library.catalog])
            #expect(shown.status == 4, "\(name): \(shown.output)")
            #expect(shown.output.contains("is not an asset") && shown.output.contains(reason), "\(name): \(shown.output)")
        }
        // Unchanged, they are not recorded again; removed, their records go.
        let again = run([DaemonProcess.binary, "index", "--catalog", library.catalog, root])
        #expect(again.status == 0, "\(again.output)")
        unlink(root + "/fifo.jpg")
        try library.photofs(["index", "--quiet", root])
        let gone = run([DaemonProcess.binary, "show", "fifo.jpg", "--catalog", library.catalog])
        #expect(gone.status == 4 && gone.output.contains("no asset"), "\(gone.output)")
    }
}
