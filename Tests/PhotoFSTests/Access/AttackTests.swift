import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// A confined app attacks its view: it runs in bubblewrap with only `apps/<app>` bound at
/// `/app` (as the sandbox launcher gives it) and makes thousands of attempts to reach
/// anything else, right after the owner looked the whole library up (cached dentries,
/// attributes and inodes), while the owner selects and deselects for other apps and for
/// this one. Nothing may succeed; the counts are printed.
@Suite(
    "access: a confined app attacks its view", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists && Sandbox.available))
struct AttackTests {
    @Test func nothingOutsideTheGrantsIsReachable() throws {
        let fixture = try AccessFixture(count: 150, seed: 11)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let mnt = fixture.mountpoint
        let all = fixture.assets
        // Grants whose file names no other asset shares, so "any other name" is well defined.
        let nameCounts = Dictionary(grouping: all, by: \.fileName).mapValues(\.count)
        let unique = all.filter { nameCounts[$0.fileName] == 1 }
        try #require(unique.count >= 30)
        let granted = [unique[4], unique[17]]
        let toggled = unique[9]
        let other = Array(all.filter { !granted.contains($0) && $0 != toggled }.prefix(25))
        #expect(PickerFile.write(mnt, "app add editor\napp add other --location keep\n").succeeded)
        #expect(PickerFile.write(mnt, "select editor \(granted.map(\.id).joined(separator: " "))\n").succeeded)
        #expect(PickerFile.write(mnt, "select other \(other.map(\.id).joined(separator: " "))\n").succeeded)
        let grantedNames = try ByteFiles.list(Array(fixture.path("apps/editor").utf8)).map { String(decoding: $0, as: UTF8.self) }
        #expect(grantedNames == granted.map(\.fileName))

        // The owner looks everything up first: every dentry, attribute and inode is cached.
        var ownerPaths: [String] = [".picker", "library", "apps"]
        var inodes: Set<UInt64> = []
        func walk(_ relative: String) {
            guard let names = try? ByteFiles.list(Array(fixture.path(relative).utf8)) else { return }
            for name in names {
                let child = relative + "/" + String(decoding: name, as: UTF8.self)
                guard let status = try? ByteFiles.stat(Array(fixture.path(child).utf8)) else { continue }
                ownerPaths.append(child)
                inodes.insert(UInt64(status.st_ino))
                if status.st_mode & S_IFMT == S_IFDIR { walk(child) }
            }
        }
        walk("library")
        walk("apps/other")
        for path in ["library", "apps", "apps/other", ".picker"] {
            if let status = try? ByteFiles.stat(Array(fixture.path(path).utf8)) { inodes.insert(UInt64(status.st_ino)) }
        }
        for asset in other.prefix(5) { _ = try? ByteFiles.read(Array(fixture.path("library/folders/" + asset.path).utf8)) }
        let grantedInodes = try granted.map { try UInt64(ByteFiles.stat(Array(fixture.path("apps/editor/" + $0.fileName).utf8)).st_ino) }
        inodes.subtract(grantedInodes)
        inodes.insert(1)

        // Every name an attacker might guess: real file names, ids, id-derived names, listed names.
        let forbidden = Set(grantedNames + [toggled.fileName])
        var names: [String] = []
        for asset in all {
            let dot = asset.fileName.lastIndex(of: ".") ?? asset.fileName.endIndex
            let stem = asset.fileName[..<dot]
            let ext = asset.fileName[dot...]
            names += [
                asset.fileName, asset.id, asset.id + ".jpg", asset.id + ext, "\(stem)~\(asset.id.prefix(4))\(ext)",
                asset.fileName.uppercased(), asset.fileName.lowercased(),
            ]
        }
        names += ownerPaths.map { String($0.split(separator: "/").last ?? "") }
        names += [
            "library", "apps", "all", "folders", "by-date", "by-camera", "other", "editor", ".", "..", "...", ".picker", "*", "\\..",
            "%2e%2e",
        ]
        names = names.uniqued().filter { !forbidden.contains($0) && $0 != "." && $0 != ".." }
        let hammer = names.filter { name in other.contains { $0.fileName == name || $0.id == name } }

        let plan: [String: Any] = [
            "granted": grantedNames, "toggled": toggled.fileName, "names": names, "paths": all.map(\.path), "ownerPaths": ownerPaths,
            "inodes": inodes.sorted(), "hammer": hammer, "hammerSeconds": 4,
        ]
        let planDirectory = temporaryDirectory("photofs-attack")
        defer { run(["/bin/rm", "-rf", planDirectory]) }
        try JSONSerialization.data(withJSONObject: plan).write(to: URL(fileURLWithPath: planDirectory + "/plan.json"))
        try Attacker.script.write(toFile: planDirectory + "/attack.py", atomically: true, encoding: .utf8)

        // The owner's races: select/deselect for the other app and for this one (a name the
        // attacker never guesses), clear and refill, while the attacker runs.
        let done = Atomic(false)
        let toggles = Atomic(0)
        let racer = Thread {
            var round = 0
            while !done.load(ordering: .acquiring) {
                let asset = other[round % other.count]
                _ = PickerFile.write(mnt, "deselect other \(asset.id)\n")
                _ = PickerFile.write(mnt, "select editor \(toggled.id)\n")
                _ = PickerFile.write(mnt, "select other \(asset.id)\n")
                _ = PickerFile.write(mnt, "deselect editor \(toggled.id)\n")
                if round % 10 == 9 {
                    _ = PickerFile.write(mnt, "clear other\nselect other \(other.map(\.id).joined(separator: " "))\n")
                }
                toggles.add(1, ordering: .relaxed)
                round += 1
            }
        }
        racer.start()
        let result = Sandbox.confine(
            bind: fixture.path("apps/editor"), at: "/app", extra: ["--ro-bind", planDirectory, "/attack"],
            command: ["/usr/bin/python3", "/attack/attack.py"])
        done.store(true, ordering: .releasing)
        while !racer.isFinished { usleep(10_000) }
        #expect(PickerFile.write(mnt, "deselect editor \(toggled.id)\n").succeeded)

        let report = try #require(
            result.stdout.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
            "the attacker printed no verdict (status \(result.status)): \(result.stderr)")
        let attempts = report["attempts"] as? Int ?? 0
        let successes = report["successCount"] as? Int ?? -1
        let control = report["control"] as? [String: Any] ?? [:]
        let handles = report["handles"] as? [String: Any] ?? [:]
        print(
            "attack on apps/editor (2 grants): \(attempts) attempts, \(successes) successes; owner made \(toggles.load(ordering: .relaxed)) select/deselect rounds meanwhile"
        )
        print("attempts by kind: \(report["categories"] ?? [:])")
        print(
            "file handles: name_to_handle_at → \(handles["name_to_handle_at"] ?? "?"), own handle reopened → \(handles["own_handle_open"] ?? "?"), forged handles (\(inodes.count) inodes × 2) → \(handles["forged"] ?? [:])"
        )
        #expect(successes == 0, "reached: \(report["successes"] ?? [])")
        #expect(attempts >= 1000)
        #expect(control["readable"] as? Int == 2, "the sandbox could not read its own grants: \(control)")
        #expect(toggles.load(ordering: .relaxed) > 5, "the owner's races did not run")

        finished = true
        let end = fixture.finish()
        #expect(end.status == 0)
        #expect(end.descriptorGrowth <= 0, "the daemon gained \(end.descriptorGrowth) descriptors")
    }
}

/// bubblewrap, as the sandbox launcher uses it: only what is bound exists inside.
enum Sandbox {
    static var available: Bool {
        if run(["/bin/sh", "-c", "command -v bwrap"]).status != 0 {
            return Skip.unless(false, "sandbox test: bubblewrap (bwrap) is not installed")
        }
        if access("/usr/bin/python3", X_OK) != 0 {
            return Skip.unless(false, "sandbox test: /usr/bin/python3 (the attacker program) is missing")
        }
        return true
    }

    /// Runs `command` in a sandbox with `/usr`, `/proc`, `/dev`, a private `/tmp` and
    /// `bind` (read-only) at `target`; no capabilities, own pid/ipc/net/uts namespaces.
    static func confine(bind: String, at target: String, extra: [String] = [], command: [String]) -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "bwrap", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
                "--symlink", "usr/bin", "/bin", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--ro-bind", bind, target,
            ] + extra + [
                "--unshare-pid", "--unshare-ipc", "--unshare-net", "--unshare-uts", "--die-with-parent", "--cap-drop", "ALL", "--chdir",
                "/", "--",
            ] + command
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { return (-1, "", "\(error)") }
        let errorData = Mutex(Data())
        let reader = Thread { errorData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return (
            process.terminationStatus, String(decoding: data, as: UTF8.self), errorData.withLock { String(decoding: $0, as: UTF8.self) }
        )
    }
}
