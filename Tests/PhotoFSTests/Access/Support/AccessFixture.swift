import Foundation
import Glibc

/// One generated library, catalogued and mounted by the built binary, with what an
/// independent reader (`exiftool`) says about each file: the ground truth the access tests
/// compare app views against. Always end with `finish()`, which unmounts and reports
/// whether the daemon exited cleanly and whether it kept descriptors it should not have.
final class AccessFixture {
    /// One catalogued asset as `photofs ls --json` lists it, with exiftool's reading.
    struct Asset: Hashable {
        let id: String
        let path: String
        let size: Int
        /// exiftool's Make, empty when there is none.
        let make: String
        /// Whether exiftool finds a GPS latitude.
        let hasLocation: Bool
        /// exiftool's latitude and longitude (decimal degrees), when it finds them.
        var coordinates: [Double] = []

        var fileName: String { String(path.split(separator: "/").last ?? "") }
    }

    let base: String
    let library: String
    let catalog: String
    let mountpoint: String
    private(set) var daemon: DaemonProcess
    private(set) var assets: [Asset] = []
    private let extra: [String]
    /// Descriptors the daemon held once it had served a first write and read.
    private(set) var baselineDescriptors = 0

    /// Generates `count` photos with `seed`, mounts them (the daemon indexes first) and
    /// reads the catalog and exiftool's facts. `worldTraversable` lets other users walk
    /// to the mountpoint (for `--allow-other`).
    init(count: Int, seed: Int, extra: [String] = [], worldTraversable: Bool = false) throws {
        base = temporaryDirectory("photofs-access")
        if worldTraversable { chmod(base, 0o711) }
        library = base + "/library"
        catalog = base + "/catalog.sqlite"
        mountpoint = base + "/mnt"
        self.extra = extra
        let generated = run([DaemonProcess.binary, "generate", "--count", String(count), "--seed", String(seed), library])
        guard generated.status == 0 else { throw DaemonProcess.StartFailure(description: "generate failed: \(generated.output)") }
        mkdir(mountpoint, 0o755)
        daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog, extra: extra)
        assets = try Self.catalogued(catalog: catalog, library: library)
        daemon.forbiddenCoordinates = assets.flatMap(\.coordinates)
        settleBaseline()
    }

    /// Starts a new daemon on the same library and catalog (after `crash()` or `unmount`),
    /// and waits until its startup scan has shown what changed while nothing was mounted.
    func remount() throws {
        daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog, extra: extra)
        daemon.waitForStartupScan()
        assets = try Self.catalogued(catalog: catalog, library: library)
        daemon.forbiddenCoordinates = assets.flatMap(\.coordinates)
        settleBaseline()
    }

    /// A path inside the mount.
    func path(_ relative: String) -> String { mountpoint + "/" + relative }

    /// The catalogued asset at a library-relative path.
    func asset(at path: String) -> Asset? { assets.first { $0.path == path } }

    /// The daemon's descriptor count now minus the baseline (0 or less when nothing leaked).
    var descriptorGrowth: Int { daemon.descriptorCount - baselineDescriptors }

    /// `descriptorGrowth` once it is 0 or less, or after 1 s (a READ the kernel sent
    /// without waiting, or a RELEASE, may reach the daemon after the reader returned).
    func settledDescriptorGrowth() -> Int {
        var growth = descriptorGrowth
        for _ in 0..<50 where growth > 0 {
            usleep(20_000)
            growth = descriptorGrowth
        }
        return growth
    }

    /// Unmounts; returns the daemon's exit status and how many descriptors it gained
    /// over the test (measured just before unmounting). Removes the temporary files.
    func finish() -> (status: Int32, descriptorGrowth: Int) {
        let growth = settledDescriptorGrowth()
        let status = daemon.unmount()
        run(["/bin/rm", "-rf", base])
        return (status, growth)
    }

    /// Lets the daemon open what it opens lazily (a picker write, a file read, a listing)
    /// before its descriptors are counted.
    private func settleBaseline() {
        _ = PickerFile.read(mountpoint)
        _ = try? ByteFiles.list(Array(path("library/all").utf8))
        if let first = assets.first { _ = try? ByteFiles.read(Array(path("library/folders/" + first.path).utf8)) }
        baselineDescriptors = daemon.descriptorCount
    }

    /// `photofs ls --json` joined with `exiftool -j -n` over the library.
    static func catalogued(catalog: String, library: String) throws -> [Asset] {
        let listed = run([DaemonProcess.binary, "ls", "--json", "--catalog", catalog])
        guard listed.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]] else {
            throw DaemonProcess.StartFailure(description: "photofs ls failed: \(listed.output)")
        }
        let facts = ExifFacts.read(library: library)
        return rows.compactMap { row in
            guard let id = row["id"] as? String, let path = row["path"] as? String, let size = row["size"] as? Int else { return nil }
            let fact = facts[path]
            return Asset(
                id: id, path: path, size: size, make: fact?.make ?? "", hasLocation: fact?.hasLocation ?? false,
                coordinates: fact?.coordinates ?? [])
        }
    }
}

/// What exiftool reads from each file of a library (independent of photofs's parser).
enum ExifFacts {
    struct Fact {
        let make: String
        let hasLocation: Bool
        let coordinates: [Double]
    }

    /// Facts by library-relative path.
    static func read(library: String) -> [String: Fact] {
        let result = run(["/usr/bin/env", "exiftool", "-j", "-n", "-r", "-q", "-Make", "-GPSLatitude", "-GPSLongitude", library])
        guard let data = result.output.data(using: .utf8),
            let rows = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [:] }
        var facts: [String: Fact] = [:]
        for row in rows {
            guard let source = row["SourceFile"] as? String, source.hasPrefix(library + "/") else { continue }
            let relative = String(source.dropFirst(library.count + 1))
            let coordinates = [row["GPSLatitude"], row["GPSLongitude"]].compactMap { ($0 as? NSNumber)?.doubleValue }
            facts[relative] = Fact(make: (row["Make"] as? String) ?? "", hasLocation: row["GPSLatitude"] != nil, coordinates: coordinates)
        }
        return facts
    }
}

/// Whether `name` is how a view may name `asset`: its own file name, or the file name with
/// `~` and at least four leading hex digits of its id before the extension.
func viewName(_ name: [UInt8], denotes asset: AccessFixture.Asset) -> Bool {
    let base = Array(asset.fileName.utf8)
    if name == base { return true }
    let dot = base.lastIndex(of: UInt8(ascii: ".")) ?? base.endIndex
    let stem = base[..<dot]
    let ext = base[dot...]
    guard name.count > base.count + 4, name.starts(with: stem), name[stem.count] == UInt8(ascii: "~"), name.hasSuffix(ext) else {
        return false
    }
    let suffix = String(decoding: name[(stem.count + 1)..<(name.count - ext.count)], as: UTF8.self)
    return suffix.count >= 4 && asset.id.hasPrefix(suffix)
}

extension Array where Element == UInt8 {
    func hasSuffix(_ suffix: ArraySlice<UInt8>) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}

/// The errno of `stat(path)`, 0 when it succeeded.
func statErrno(_ path: String) -> Int32 {
    var status = stat()
    return stat(path, &status) == 0 ? 0 : errno
}

/// The errno of `open(path, flags)`, 0 when it succeeded (the descriptor is closed again).
func openErrno(_ path: String, _ flags: Int32 = O_RDONLY) -> Int32 {
    let fd = open(path, flags | O_CLOEXEC)
    if fd < 0 { return errno }
    close(fd)
    return 0
}
