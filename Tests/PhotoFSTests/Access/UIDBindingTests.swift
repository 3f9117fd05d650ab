import Foundation
import Glibc
import TestSupport
import Testing

/// Uid binding with real Unix users: the mount runs as root with `--allow-other`, an app is
/// bound to a second user, and a third user is bound to nothing. Each runs its probes in
/// its own process (`setpriv`), right after root looked everything up, so the kernel's
/// cached names and attributes are there to be abused.
@Suite(
    "access: uid binding through a real mount", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists && UnixUsers.canCreate))
struct UIDBindingTests {
    /// One probe the other user runs: `stat`, `open` (with flags), `list`, `write` (open
    /// O_WRONLY|O_TRUNC and write a command), or `read` (whole file; the size is the result).
    struct Probe {
        let label: String
        let operation: String
        let path: String
    }

    /// Runs the probes as `user` and returns each label's errno (0: it worked) and listings.
    static func probe(as user: UnixUsers.User, _ probes: [Probe]) throws -> (codes: [String: Int], listings: [String: [String]]) {
        let directory = temporaryDirectory("photofs-probe")
        defer { run(["/bin/rm", "-rf", directory]) }
        chmod(directory, 0o755)
        let plan = probes.map { ["label": $0.label, "op": $0.operation, "path": $0.path] }
        try JSONSerialization.data(withJSONObject: plan).write(to: URL(fileURLWithPath: directory + "/plan.json"))
        try Self.prober.write(toFile: directory + "/probe.py", atomically: true, encoding: .utf8)
        chmod(directory + "/plan.json", 0o644)
        chmod(directory + "/probe.py", 0o644)
        let result = run([
            "/usr/bin/setpriv", "--reuid", String(user.uid), "--regid", String(user.gid), "--clear-groups", "--",
            "/usr/bin/python3", directory + "/probe.py", directory + "/plan.json",
        ])
        let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
        let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "prober: \(result.output)")
        return (report["codes"] as? [String: Int] ?? [:], report["listings"] as? [String: [String]] ?? [:])
    }

    static let prober = #"""
        import json, os, sys
        codes, listings = {}, {}
        for p in json.load(open(sys.argv[1])):
            label, op, path = p["label"], p["op"], p["path"]
            try:
                if op == "stat":
                    os.stat(path)
                elif op == "list":
                    listings[label] = os.listdir(path)
                elif op == "read":
                    with open(path, "rb") as f:
                        f.read()
                elif op == "open-rdonly":
                    os.close(os.open(path, os.O_RDONLY))
                elif op == "open-wronly":
                    os.close(os.open(path, os.O_WRONLY))
                elif op == "write":
                    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
                    try:
                        os.write(fd, b"clear viewer\n")
                    finally:
                        os.close(fd)
                codes[label] = 0
            except OSError as e:
                codes[label] = e.errno
        print(json.dumps({"uid": os.getuid(), "codes": codes, "listings": listings}))
        """#

    @Test func boundUIDSeesItsViewOnlyAndStrangersNothing() throws {
        let viewer = try UnixUsers.create("pfsview")
        defer { UnixUsers.remove(viewer) }
        let stranger = try UnixUsers.create("pfsother")
        defer { UnixUsers.remove(stranger) }
        let fixture = try AccessFixture(count: 40, seed: 9, extra: ["--allow-other"], worldTraversable: true)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let mnt = fixture.mountpoint
        let nameCounts = Dictionary(grouping: fixture.assets, by: \.fileName).mapValues(\.count)
        let unique = fixture.assets.filter { nameCounts[$0.fileName] == 1 }
        try #require(unique.count >= 8)
        let mine = [unique[5], unique[1], unique[3]]
        let theirs = [unique[0], unique[2], unique[4]]
        #expect(PickerFile.write(mnt, "app add viewer --uid \(viewer.uid)\napp add other\n").succeeded)
        #expect(
            PickerFile.write(
                mnt, "select viewer \(mine.map(\.id).joined(separator: " "))\nselect other \(theirs.map(\.id).joined(separator: " "))\n"
            ).succeeded)
        let viewerDir = try ByteFiles.stat(Array(fixture.path("apps/viewer").utf8))
        #expect(viewerDir.st_uid == viewer.uid && viewerDir.st_mode & 0o777 == 0o500)

        // Root looks everything up, so every name and attribute is in the kernel's caches.
        func ownerLooksEverythingUp() {
            let result = run(["/usr/bin/find", mnt, "-printf", "%s\n"])
            #expect(result.status == 0, "\(result.output)")
            for asset in mine + theirs { _ = try? ByteFiles.read(Array(fixture.path("library/folders/" + asset.path).utf8)) }
            _ = PickerFile.read(mnt)
        }

        let libraryAll = try ByteFiles.list(Array(fixture.path("library/all").utf8)).map { String(decoding: $0, as: UTF8.self) }
        var outside: [Probe] = [
            Probe(label: "list root", operation: "list", path: mnt),
            Probe(label: "list library", operation: "list", path: fixture.path("library")),
            Probe(label: "list library/all", operation: "list", path: fixture.path("library/all")),
            Probe(label: "list apps/other", operation: "list", path: fixture.path("apps/other")),
            Probe(label: "stat .picker", operation: "stat", path: fixture.path(".picker")),
            Probe(label: "read .picker", operation: "read", path: fixture.path(".picker")),
            Probe(label: "open .picker for writing", operation: "open-wronly", path: fixture.path(".picker")),
            Probe(label: "write .picker", operation: "write", path: fixture.path(".picker")),
            Probe(label: "stat library/all", operation: "stat", path: fixture.path("library/all")),
            Probe(label: "stat library/folders", operation: "stat", path: fixture.path("library/folders")),
        ]
        for name in libraryAll {
            outside.append(Probe(label: "stat library/all/\(name)", operation: "stat", path: fixture.path("library/all/" + name)))
            outside.append(Probe(label: "read library/all/\(name)", operation: "read", path: fixture.path("library/all/" + name)))
        }
        for asset in fixture.assets {
            outside.append(
                Probe(label: "read library/folders/\(asset.path)", operation: "read", path: fixture.path("library/folders/" + asset.path)))
        }
        for asset in theirs {
            outside.append(
                Probe(label: "stat apps/other/\(asset.fileName)", operation: "stat", path: fixture.path("apps/other/" + asset.fileName)))
            outside.append(
                Probe(label: "read apps/other/\(asset.fileName)", operation: "read", path: fixture.path("apps/other/" + asset.fileName)))
        }
        for asset in fixture.assets where !mine.contains(asset) {
            outside.append(
                Probe(label: "stat apps/viewer/\(asset.fileName)", operation: "stat", path: fixture.path("apps/viewer/" + asset.fileName)))
            outside.append(Probe(label: "stat apps/viewer/\(asset.id)", operation: "stat", path: fixture.path("apps/viewer/" + asset.id)))
        }
        let layout = [
            Probe(label: "stat library", operation: "stat", path: fixture.path("library")),
            Probe(label: "stat apps/other", operation: "stat", path: fixture.path("apps/other")),
            Probe(label: "stat apps", operation: "stat", path: fixture.path("apps")),
            Probe(label: "list apps", operation: "list", path: fixture.path("apps")),
        ]
        var own = [Probe(label: "list apps/viewer", operation: "list", path: fixture.path("apps/viewer"))]
        for asset in mine {
            own.append(
                Probe(label: "read apps/viewer/\(asset.fileName)", operation: "read", path: fixture.path("apps/viewer/" + asset.fileName)))
        }

        // The bound uid: its own view, nothing else; .picker refused by the kernel (EACCES).
        ownerLooksEverythingUp()
        let asViewer = try Self.probe(as: viewer, own + outside + layout)
        for probe in own { #expect(asViewer.codes[probe.label] == 0, "viewer: \(probe.label) → \(asViewer.codes[probe.label] ?? -1)") }
        #expect(asViewer.listings["list apps/viewer"] == mine.map(\.fileName))
        let leaks = outside.filter { asViewer.codes[$0.label] == 0 }.map(\.label)
        #expect(leaks.isEmpty || leaks == ["list root"], "the bound uid reached: \(leaks)")
        #expect(
            asViewer.listings["list root"].map { Set($0).isDisjoint(with: ["library", ".picker"]) } ?? true,
            "root listing for the bound uid: \(asViewer.listings["list root"] ?? [])")
        // Refused either by the kernel from the mode bits (EACCES) or by the daemon, which
        // hides owner-only nodes from a bound uid (ENOENT); never anything else.
        for probe in outside where probe.label != "list root" {
            #expect(
                [Int(EACCES), Int(ENOENT)].contains(asViewer.codes[probe.label] ?? -1),
                "viewer: \(probe.label) → \(Self.describe(asViewer.codes[probe.label]))")
        }
        #expect(
            asViewer.listings["list apps"].map { $0 == ["viewer"] } ?? true,
            "apps/ for the bound uid: \(asViewer.listings["list apps"] ?? [])")
        print(
            "bound uid \(viewer.uid): \(outside.count) probes outside its view, \(leaks.count) answered (\(leaks)); root lists as \(asViewer.listings["list root"] ?? []); apps/ lists as \(asViewer.listings["list apps"] ?? []); layout: "
                + layout.map { "\($0.label) → \(Self.describe(asViewer.codes[$0.label]))" }.joined(separator: ", "))
        print("refusals seen by the bound uid: \(Self.histogram(outside.map { asViewer.codes[$0.label] ?? -1 }))")

        // A uid bound to nothing: refused everywhere, even its neighbour's granted files.
        ownerLooksEverythingUp()
        let asStranger = try Self.probe(as: stranger, own + outside + layout)
        let strangerLeaks = (own + outside).filter { asStranger.codes[$0.label] == 0 }.map(\.label)
        #expect(strangerLeaks.isEmpty, "the unbound uid reached: \(strangerLeaks)")
        #expect(asStranger.codes["list root"] == Int(EACCES))
        #expect(asStranger.codes["list apps"] == Int(EACCES))
        print(
            "unbound uid \(stranger.uid): \((own + outside).count) probes, \(strangerLeaks.count) answered; layout: "
                + layout.map { "\($0.label) → \(Self.describe(asStranger.codes[$0.label]))" }.joined(separator: ", "))
        print("refusals seen by the unbound uid: \(Self.histogram((own + outside).map { asStranger.codes[$0.label] ?? -1 }))")

        // Nothing the others tried changed anything; the owner still sees everything.
        #expect(PickerFile.selection(mnt, app: "viewer") == mine.map(\.id))
        #expect(try ByteFiles.list(Array(fixture.path("apps/other").utf8)).count == theirs.count)

        finished = true
        let end = fixture.finish()
        #expect(end.status == 0)
        #expect(end.descriptorGrowth <= 0, "the daemon gained \(end.descriptorGrowth) descriptors")
    }

    static func describe(_ code: Int?) -> String {
        guard let code else { return "?" }
        return code == 0 ? "answered" : String(cString: strerror(Int32(code)))
    }

    static func histogram(_ codes: [Int]) -> String {
        Dictionary(grouping: codes, by: { $0 }).sorted { $0.key < $1.key }.map { "\(describe($0.key)) ×\($0.value.count)" }.joined(
            separator: ", ")
    }
}

/// Temporary Unix users for the uid-binding test (root only).
enum UnixUsers {
    struct User {
        let name: String
        let uid: UInt32
        let gid: UInt32
    }

    static var canCreate: Bool {
        if getuid() != 0 {
            return Skip.unless(false, "uid-binding test: it creates Unix users and mounts with --allow-other, which needs root")
        }
        if access("/usr/sbin/useradd", X_OK) != 0 || access("/usr/bin/setpriv", X_OK) != 0 {
            return Skip.unless(false, "uid-binding test: useradd or setpriv is missing")
        }
        return true
    }

    /// A new system user without a home, named `prefix` plus a random number.
    static func create(_ prefix: String) throws -> User {
        let name = prefix + String(UInt32.random(in: 10_000...99_999))
        let made = run(["/usr/sbin/useradd", "--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name])
        guard made.status == 0, let entry = getpwnam(name) else {
            throw DaemonProcess.StartFailure(description: "useradd \(name) failed: \(made.output)")
        }
        return User(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }

    static func remove(_ user: User) {
        run(["/usr/sbin/userdel", user.name])
    }
}
