import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs run APP -- COMMAND` (and `mount-scripts/photofs-sandbox`): a command under
/// bubblewrap sees the app's granted photos at ~/Pictures and nothing else of the library,
/// the mount, the control file or the home directory.
@Suite("photofs run sandbox", .serialized, .enabled(if: SandboxAvailability.available))
struct SandboxTests {
    /// A mounted library with app `editor` granted assets 0 and 2, a home directory with a
    /// secret file, and `body` run with them; always unmounts.
    static func withMountedApp(_ body: (IntegrationLibrary, [String], String) throws -> Void) throws {
        let library = try IntegrationLibrary(prefix: "photofs-sandbox")
        defer { library.remove() }
        let home = library.base + "/home"
        mkdir(home, 0o700)
        try "not for apps\n".write(toFile: home + "/secret.txt", atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        let names = try library.grant("editor", [0, 2])
        try library.photofs(["app", "add", "other"])
        try library.photofs(["select", "other", library.assets[1].id])
        try body(library, names, home)
    }

    /// Runs `photofs run` with HOME set to `home`.
    static func sandbox(_ home: String, _ arguments: [String], path: String? = nil) -> (status: Int32, output: String) {
        var environment = ["HOME=\(home)"]
        if let path { environment.append("PATH=\(path)") }
        return run(["/usr/bin/env"] + environment + [DaemonProcess.binary, "run"] + arguments)
    }

    @Test func theViewIsAllTheSandboxSees() throws {
        try Self.withMountedApp { library, names, home in
            let m = library.mountpoint
            let first = library.library + "/" + library.assets[0].path
            // One shell inside the sandbox tries everything and prints one line per probe.
            let script = """
                printf 'dir=%s\\n' "$PHOTOFS_DIR"
                printf 'home=%s\\n' "$HOME"
                ls -A "$HOME/Pictures" | sed 's/^/pic:/'
                cat "$HOME/Pictures/\(names[0])" | sha256sum | sed 's/^/sum:/'
                probe() { if "$@" >/dev/null 2>&1; then echo "reached:$*"; else echo "refused:$*"; fi; }
                probe ls '\(m)'
                probe ls '\(m)/library'
                probe cat '\(m)/.picker'
                probe ls '\(m)/apps/other'
                probe cat "$HOME/Pictures/../.picker"
                probe ls "$HOME/Pictures/../library"
                probe cat '\(first)'
                probe ls '\(library.library)'
                probe cat '\(home)/secret.txt'
                probe cat '\(library.catalog)'
                probe sh -c 'echo x > "$HOME/Pictures/new.jpg"'
                probe sh -c 'echo "clear editor" > "$HOME/Pictures/.picker"'
                """
            let result = Self.sandbox(home, ["--mountpoint", m, "editor", "--", "/bin/sh", "-c", script])
            #expect(result.status == 0, "\(result.output)")
            let lines = result.output.split(separator: "\n").map(String.init)
            #expect(lines.contains("dir=\(home)/Pictures"))
            #expect(lines.contains("home=\(home)"))
            #expect(lines.filter { $0.hasPrefix("pic:") }.map { String($0.dropFirst(4)) }.sorted() == names.sorted())
            let expectedSum = run(["/bin/sh", "-c", "sha256sum < '\(m)/apps/editor/\(names[0])'"]).output
            #expect(lines.contains("sum:" + expectedSum.trimmingCharacters(in: .newlines)))
            let reached = lines.filter { $0.hasPrefix("reached:") }
            #expect(reached == [], "the sandbox reached: \(reached)")
            #expect(lines.filter { $0.hasPrefix("refused:") }.count == 12, "\(result.output)")
            // The grant is intact: the sandbox's write to .picker never reached the daemon.
            #expect(IntegrationLibrary.names(m + "/apps/editor") == names.sorted())
        }
    }

    @Test func exitCodeIsTheCommandsAndTheWrapperWorks() throws {
        try Self.withMountedApp { library, names, home in
            let m = library.mountpoint
            #expect(Self.sandbox(home, ["-m", m, "editor", "--", "/bin/sh", "-c", "exit 7"]).status == 7)
            let wrapped = run(
                [
                    "/usr/bin/env", "HOME=\(home)", "PHOTOFS_BIN=\(DaemonProcess.binary)",
                    IntegrationLibrary.mountScripts + "/photofs-sandbox",
                    "--mountpoint", m, "editor", "--", "/bin/ls", "\(home)/Pictures",
                ])
            #expect(wrapped.status == 0, "\(wrapped.output)")
            #expect(wrapped.output.split(separator: "\n").map(String.init).sorted() == names.sorted())
        }
    }

    /// A mount below a directory the sandbox binds read-only (here /opt) would come along with
    /// it (binds are recursive): it is covered, so only the app's view is reachable.
    @Test(.enabled(if: getuid() == 0 && access("/opt", W_OK) == 0)) func aMountBelowABoundDirectoryIsCovered() throws {
        let library = try IntegrationLibrary(prefix: "photofs-sandbox")
        defer { library.remove() }
        var template = Array("/opt/photofs-sandbox-XXXXXX".utf8CString)
        let mountpoint = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer { rmdir(mountpoint) }
        let home = library.base + "/home"
        mkdir(home, 0o700)
        let daemon = try DaemonProcess(library: library.library, mountpoint: mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        let names = try library.grant("editor", [1])
        let result = Self.sandbox(
            home, ["-m", mountpoint, "editor", "--", "/bin/sh", "-c", "ls -A '\(mountpoint)'; echo ---; ls \"$HOME/Pictures\""])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == "---\n" + names[0] + "\n")
    }

    /// `photofs status --json` lists the mount the sandbox takes its view from.
    @Test func statusJSONListsTheMount() throws {
        try Self.withMountedApp { library, _, _ in
            let result = run([DaemonProcess.binary, "status", "--json"])
            #expect(result.status == 0)
            let mounts = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: String]] ?? []
            let ours = mounts.filter { $0["mountpoint"] == library.mountpoint }
            #expect(ours.count == 1)
            #expect(ours.first?["state"] == "mounted")
            #expect(ours.first?["library"].map { MountTableProbe.realPath($0) } == MountTableProbe.realPath(library.library))
        }
    }

    @Test func refusalsHaveTheirExitCodes() throws {
        try Self.withMountedApp { library, _, home in
            let m = library.mountpoint
            let noApp = Self.sandbox(home, ["-m", m, "nosuchapp", "--", "/bin/true"])
            #expect(noApp.status == 4)
            #expect(noApp.output.contains("no app named 'nosuchapp'"))
            let notMounted = Self.sandbox(home, ["-m", library.base, "editor", "--", "/bin/true"])
            #expect(notMounted.status == 4)
            #expect(notMounted.output.contains("is not a photofs mount"))
            let noBwrap = Self.sandbox(home, ["-m", m, "editor", "--", "/bin/true"], path: "/nonexistent")
            #expect(noBwrap.status == 3)
            #expect(noBwrap.output.contains("bubblewrap"))
            let noDashes = Self.sandbox(home, ["-m", m, "editor", "/bin/true"])
            #expect(noDashes.status == 2)
            let unknownOption = Self.sandbox(home, ["-m", m, "--shared-net", "editor", "--", "/bin/true"])
            #expect(unknownOption.status == 2)
            #expect(unknownOption.output.contains("unknown option '--shared-net'"))
        }
    }
}

/// Whether the sandbox tests can run here (kept outside the suite: a suite trait may not
/// refer to the suite itself).
enum SandboxAvailability {
    /// Whether bwrap is installed and can make user namespaces here.
    static var available: Bool {
        guard FuseAvailability.available, DaemonProcess.binaryExists else { return false }
        guard let bwrap = IntegrationLibrary.program("bwrap") else {
            return Skip.unless(false, "sandbox test: bubblewrap (bwrap) is not installed (mount-scripts/install-deps installs it)")
        }
        let probe = run([bwrap, "--unshare-all", "--ro-bind", "/", "/", "/bin/true"])
        if probe.status != 0 {
            return Skip.unless(false, "sandbox test: bwrap cannot create namespaces here (user namespaces unavailable?): \(probe.output)")
        }
        return true
    }
}
