import Foundation
import Glibc
import PhotoCatalog
import PhotoCore
import PhotoHashing
import TestSupport
import Testing

/// GoPro GPS tracks through the kernel: small GoPro-like MP4s (a `gpmd` track of GPMF
/// samples with `GPS5` or `GPS9` streams; `stco`, `co64` and `stz2` tables) copied into a
/// library, mounted by the built binary and read back through three apps. exiftool `-ee`
/// (with `-u`, so that it also lists the `GPS9` it has no name for) is the judge: it finds
/// the track in the original and in `keep` (byte-identical), no GPS tag and no new warning
/// in `strip`, and in `coarse` positions within 0.01° that are not the original ones.
/// Prints tag names only, never a coordinate. Skips without FUSE or exiftool.
@Suite(
    "redaction: GoPro GPMF tracks through real app views", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct GPMFViewRedactionTests {
    typealias G = GoProFixture

    static let positions = [
        G.Position(latitude: 46.558_123, longitude: 7.983_456, altitude: 3466.5),
        G.Position(latitude: 46.558_391, longitude: 7.983_812, altitude: 3467.25),
    ]

    /// The fixtures, by file name.
    static let files: [String: [UInt8]] = {
        let gps5 = (0..<4).map { _ in G.sample(positions) }
        let gps9 = (0..<4).map { _ in G.sample(positions, gps9: true) }
        return [
            "gopro-gps5-stco.mp4": G.movie(gps5),
            "gopro-gps5-co64.mp4": G.movie(gps5, table: .init(co64: true, samplesPerChunk: 2)),
            "gopro-gps5-stz2.mp4": G.movie(gps5, table: .init(stz2: true)),
            "gopro-gps9-co64.mp4": G.movie(gps9, table: .init(co64: true)),
        ]
    }()

    /// exiftool's `-ee -u -n -json -a -G1` reading of every path.
    static func exiftool(_ paths: [String]) -> [String: [String: Any]] {
        let result = run(["/bin/bash", "-c", "exec exiftool -ee -u -n -json -a -G1 -- \"$@\" 2>/dev/null", "exiftool"] + paths)
        guard let rows = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] else { return [:] }
        var readings: [String: [String: Any]] = [:]
        for row in rows {
            if let source = row["SourceFile"] as? String { readings[source] = row }
        }
        return readings
    }

    /// The keys of a reading that hold or belong to a GPS position (GPS* names in any
    /// group, GoPro's unnamed `GPS9`) and exiftool's warnings.
    static func gpsKeys(_ reading: [String: Any]) -> [String] {
        reading.keys.filter { key in
            let name = key.split(separator: ":").last.map(String.init) ?? key
            return name.hasPrefix("GPS") || name.hasPrefix("GoPro_GPS")
        }.sorted()
    }

    static func warnings(_ reading: [String: Any]) -> [String] {
        reading.filter { $0.key.hasSuffix(":Warning") || $0.key.hasSuffix(":Error") || $0.key == "Warning" || $0.key == "Error" }.map {
            "\($0.key)=\($0.value)"
        }.sorted()
    }

    /// Every number a reading holds under `name` (a single value or a list).
    static func numbers(_ reading: [String: Any], _ name: String) -> [Double] {
        reading.filter { $0.key.hasSuffix(":" + name) || $0.key == name }.flatMap { entry -> [Double] in
            if let list = entry.value as? [Any] { return list.compactMap { ($0 as? NSNumber)?.doubleValue } }
            if let number = entry.value as? NSNumber { return [number.doubleValue] }
            if let text = entry.value as? String { return text.split(separator: " ").compactMap { Double($0) } }
            return []
        }
    }

    @Test func gpsTracksAreStrippedRoundedAndKept() throws {
        if let missing = LocationReader.exiftoolMissing { try Skip.because("skipping GPMF mount test: \(missing)") }
        let base = temporaryDirectory("photofs-gpmf-mount")
        defer { run(["/bin/rm", "-rf", base]) }
        let library = base + "/library"
        ByteFiles.mkdirs(Array(library.utf8))
        for (name, bytes) in Self.files { try ByteFiles.write(Array((library + "/" + name).utf8), bytes) }
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let catalogPath = base + "/catalog.sqlite"
        let daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalogPath)
        defer { daemon.unmount() }
        daemon.forbiddenCoordinates = Self.positions.flatMap { [$0.latitude, $0.longitude] }

        let catalog = try Catalog.open(at: catalogPath)
        var ids: [String: String] = [:]
        for name in Self.files.keys {
            let record = try #require(try catalog.asset(at: LibraryPath(name)), "\(name) is not catalogued")
            ids[name] = record.asset.id.rawValue
            #expect(try Filter("has:location").matches(record.asset), "\(name): has:location is false")
            #expect(record.asset.metadata.locationSources == .gpmf, "\(name): \(record.asset.metadata.locationSources.names)")
        }
        let setup = PickerFile.write(
            mountpoint,
            // Selected while every app keeps locations (a select of a withheld file is refused).
            "app add strip --location keep\napp add keep --location keep\napp add coarse --location keep\n"
                + ["strip", "keep", "coarse"].map { "select \($0) \(ids.values.sorted().joined(separator: " "))\n" }.joined()
                + "app set strip --location strip\napp set coarse --location coarse\n")
        try #require(setup.succeeded, "picker: \(setup)")

        let names = Self.files.keys.sorted()
        let originals = names.map { library + "/" + $0 }
        let views = ["strip", "keep", "coarse"].flatMap { app in names.map { mountpoint + "/apps/\(app)/" + $0 } }
        let readings = Self.exiftool(originals + views)
        for name in names {
            let original = try #require(readings[library + "/" + name], "exiftool cannot read \(name)")
            let before = Self.gpsKeys(original)
            let latitudes = Self.numbers(original, "GPSLatitude")
            if name.contains("gps5") {
                #expect(before.contains("Track1:GPSLatitude") && before.contains("Track1:GPSDateTime"), "\(name): \(before)")
                #expect(!latitudes.isEmpty)
            } else {
                #expect(!before.isEmpty, "\(name): exiftool -ee -u finds no GPS9")
            }
            let bytes = try #require(Self.files[name])
            let keep = try ByteFiles.read(Array((mountpoint + "/apps/keep/" + name).utf8))
            #expect(SHA256.hash(keep) == SHA256.hash(bytes), "\(name): apps/keep is not the original")

            let strip = try #require(readings[mountpoint + "/apps/strip/" + name], "exiftool cannot read strip/\(name)")
            #expect(Self.gpsKeys(strip).isEmpty, "\(name): strip keeps \(Self.gpsKeys(strip))")
            #expect(Self.warnings(strip) == Self.warnings(original), "\(name): strip warnings \(Self.warnings(strip))")
            let stripped = try ByteFiles.read(Array((mountpoint + "/apps/strip/" + name).utf8))
            #expect(stripped.count == bytes.count)
            print("GPMF strip: \(name): before \(before.count) GPS tag(s), after \(Self.gpsKeys(strip).count)")

            let coarse = try #require(readings[mountpoint + "/apps/coarse/" + name], "exiftool cannot read coarse/\(name)")
            #expect(Self.warnings(coarse) == Self.warnings(original), "\(name): coarse warnings \(Self.warnings(coarse))")
            if name.contains("gps5") {
                let rounded = Self.numbers(coarse, "GPSLatitude") + Self.numbers(coarse, "GPSLongitude")
                let exact = latitudes + Self.numbers(original, "GPSLongitude")
                #expect(rounded.count == exact.count && !rounded.isEmpty, "\(name): coarse positions \(rounded.count) of \(exact.count)")
                for (a, b) in zip(rounded, exact) {
                    #expect(abs(a - b) <= 0.005 + 1e-9, "\(name): a coarse position is more than 0.005° away")
                    #expect(a != b, "\(name): a coarse position is exact")
                    #expect(abs(a * 100 - (a * 100).rounded()) < 1e-6, "\(name): a coarse position is not on the 0.01° grid")
                }
                #expect(Self.numbers(coarse, "GPSAltitude").allSatisfy { $0 == 0 }, "\(name): coarse keeps altitude")
            }
        }
    }
}
