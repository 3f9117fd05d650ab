import Foundation
import Glibc
import Testing

/// A mounted generated library with the portal processes on a private bus, and what the
/// portal tests ask of it: pending requests, answers through `.picker` + `.requests`, views.
struct PortalFixture {
    let library: IntegrationLibrary
    let session: PortalSession
    let stub: BackgroundProcess
    let backend: BackgroundProcess

    /// Mounts an 8-photo library, starts the stub, the backend and (with `frontend`) the
    /// portal frontend, runs `body`, and always ends them and unmounts.
    static func with(
        frontend: Bool, backendArguments: [String] = ["--no-open"], backendVariables: [String] = [], _ body: (PortalFixture) throws -> Void
    ) throws {
        let library = try IntegrationLibrary(count: 8, prefix: "photofs-portal")
        defer { library.remove() }
        let daemon = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        let session = try PortalSession(base: library.base + "/bus")
        defer { session.stop() }
        let stub = try session.startStub()
        let backend = try session.startBackend(
            mountpoint: library.mountpoint, ["--catalog", library.catalog] + backendArguments, variables: backendVariables)
        if frontend { _ = try session.startFrontend() }
        try body(PortalFixture(library: library, session: session, stub: stub, backend: backend))
        // The backend stops cleanly on SIGTERM.
        kill(backend.pid, SIGTERM)
        #expect(backend.wait(timeout: 20) == 0, "\(backend.output)")
    }

    /// The pending request of `app` as `photofs requests --json` lists it (waiting up to 20 s).
    func pendingRequest(of app: String) -> [String: Any]? {
        for _ in 0..<200 {
            let listed = run([DaemonProcess.binary, "requests", "--json", "--mountpoint", library.mountpoint])
            let objects = (try? JSONSerialization.jsonObject(with: Data(listed.output.utf8))) as? [[String: Any]] ?? []
            if let found = objects.first(where: { $0["app"] as? String == app }) { return found }
            usleep(100_000)
        }
        return nil
    }

    /// Whether `app` has no pending request (waiting up to 10 s for it to go).
    func noPendingRequest(of app: String) -> Bool {
        for _ in 0..<100 {
            let text = (try? String(contentsOfFile: library.mountpoint + "/.requests", encoding: .utf8)) ?? ""
            if !text.contains(" app=\(app) ") { return true }
            usleep(100_000)
        }
        return false
    }

    /// Grants the assets at `indices` to `app` through `.picker`, then answers its request
    /// `id` with them, in that order, through `.requests`.
    func answer(_ app: String, id: Int, with indices: [Int]) throws {
        let ids = indices.map { library.assets[$0].id }
        #expect(RequestFileTests.write("select \(app) \(ids.joined(separator: " "))\n", to: library.mountpoint + "/.picker") == 0)
        #expect(RequestFileTests.write("answer \(app) \(id) \(ids.joined(separator: " "))\n", to: library.mountpoint + "/.requests") == 0)
    }

    /// The names `app`'s view lists.
    func view(_ app: String) -> [String] {
        IntegrationLibrary.names(library.mountpoint + "/apps/" + app)
    }

    /// The app as `photofs app show --json` reports it.
    func app(_ name: String) -> [String: Any] {
        let shown = run([DaemonProcess.binary, "app", "show", "--json", "--catalog", library.catalog, name])
        return (try? JSONSerialization.jsonObject(with: Data(shown.output.utf8))) as? [String: Any] ?? [:]
    }

    /// Indices of library assets whose original carries a location (exiftool), in library order.
    func locatedAssets() -> [Int] {
        let paths = library.assets.map { library.library + "/" + $0.path }
        let readings = LocationReader.exiftool(paths)
        return paths.indices.filter { !LocationReader.locationKeys(readings[paths[$0]] ?? [:]).isEmpty }
    }

    /// Checks that the URIs are `file://` paths of `app`'s view, naming the assets at
    /// `indices` in that order, and that none carries a location tag.
    func expectPicked(_ uris: [String], app: String, indices: [Int]) {
        #expect(uris.count == indices.count, "\(uris)")
        let prefix = "file://" + library.mountpoint + "/apps/" + app + "/"
        var paths: [String] = []
        for (uri, index) in zip(uris, indices) {
            #expect(uri.hasPrefix(prefix), "\(uri) is not in the view of \(app)")
            let path = URL(string: uri)?.path ?? ""
            paths.append(path)
            #expect(access(path, R_OK) == 0, "\(path) cannot be read")
            let stem = String(library.assets[index].path.split(separator: "/").last!.split(separator: ".").first!)
            #expect(path.split(separator: "/").last?.hasPrefix(stem) == true, "\(uri) is not asset \(index)")
        }
        let readings = LocationReader.exiftool(paths)
        for path in paths {
            #expect(readings[path] != nil, "exiftool did not read \(path)")
            #expect(LocationReader.locationKeys(readings[path] ?? [:]).isEmpty, "\(path) still has a location")
        }
    }
}
