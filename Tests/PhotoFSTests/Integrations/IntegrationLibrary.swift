import Foundation
import Glibc

/// A generated, catalogued sample library in a fresh temporary directory, with an app that
/// has some of its assets granted, for the integration tests (mount(8), sandbox,
/// completion). Everything goes through the built binary, as a user would do it.
struct IntegrationLibrary {
    let base: String
    let library: String
    let catalog: String
    let mountpoint: String
    /// Every asset (id, library-relative path).
    let assets: [(id: String, path: String)]

    /// The package root, from this file's path.
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let mountScripts = packageRoot + "/mount-scripts"

    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Generates `count` photos, catalogs them and creates an empty mountpoint.
    init(count: Int = 6, prefix: String = "photofs-integ") throws {
        base = temporaryDirectory(prefix)
        library = base + "/library"
        catalog = base + "/catalog.sqlite"
        mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        try Self.check(run([DaemonProcess.binary, "generate", "--count", String(count), "--seed", "3", library]))
        try Self.check(run([DaemonProcess.binary, "index", "--quiet", "--catalog", catalog, library]))
        let listing = run([DaemonProcess.binary, "ls", "--json", "--catalog", catalog])
        try Self.check(listing)
        let objects = try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]] ?? []
        assets = objects.compactMap { object in
            guard let id = object["id"] as? String, let path = object["path"] as? String else { return nil }
            return (id, path)
        }
        guard assets.count == count else { throw SetupFailure(description: "expected \(count) assets, catalog has \(assets.count)") }
    }

    /// Runs `photofs ARGS --catalog CATALOG` and requires success.
    func photofs(_ arguments: [String]) throws {
        try Self.check(run([DaemonProcess.binary] + arguments + ["--catalog", catalog]))
    }

    /// Adds `app` and grants it the assets at `indices`, in that order; returns their basenames.
    @discardableResult
    func grant(_ app: String, _ indices: [Int]) throws -> [String] {
        try photofs(["app", "add", app])
        try photofs(["select", app] + indices.map { assets[$0].id })
        return indices.map { String(assets[$0].path.split(separator: "/").last ?? "") }
    }

    /// Removes the temporary directory (after the mount is gone).
    func remove() {
        run(["/bin/rm", "-rf", base])
    }

    static func check(_ result: (status: Int32, output: String)) throws {
        guard result.status == 0 else { throw SetupFailure(description: "exit \(result.status): \(result.output)") }
    }

    /// Whether `path` is a mountpoint now (per /proc/self/mountinfo).
    static func isMounted(_ path: String) -> Bool {
        let table = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 && fields[4] == Substring(path)
        }
    }

    /// The names in a directory (without . and ..), sorted.
    static func names(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// The first executable `name` on the PATH.
    static func program(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
