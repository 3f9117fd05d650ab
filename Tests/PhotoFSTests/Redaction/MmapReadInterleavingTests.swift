import Foundation
import Glibc
import MediaFormats
import PhotoCatalog
import PhotoCore
import PhotoSamples
import Testing

/// The same GPS JPEG through a `strip` app view and through `library/all`, mounted by the
/// built binary: every order of {mmap strip, read strip, mmap library, read library}, with
/// the pages dropped first and again with them cached, private and shared mappings. Each
/// access must see its own view's bytes (redacted in the app view, original in the
/// library), and mappings made earlier must still show theirs at the end: the two views
/// are different inodes, so their pages never mix. Uses a generated fixture whose GPS
/// patch straddles a page boundary, so it runs without the corpus.
@Suite(
    "redaction: mmap and read interleavings through a real mount", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct MmapReadInterleavingTests {
    /// One access to one view.
    enum Access: CaseIterable, CustomStringConvertible {
        case mmapStrip, readStrip, mmapLibrary, readLibrary

        var inStripView: Bool { self == .mmapStrip || self == .readStrip }
        var maps: Bool { self == .mmapStrip || self == .mmapLibrary }
        var description: String {
            switch self {
            case .mmapStrip: "mmap strip"
            case .readStrip: "read strip"
            case .mmapLibrary: "mmap library"
            case .readLibrary: "read library"
            }
        }
    }

    /// A mapping of a whole file, unmapped by `unmap()`.
    struct Mapping {
        let address: UnsafeMutableRawPointer
        let length: Int
        let access: Access

        func holds(_ bytes: [UInt8]) -> Bool {
            bytes.count == length && bytes.withUnsafeBytes { memcmp(address, $0.baseAddress!, length) == 0 }
        }

        func unmap() { munmap(address, length) }
    }

    /// Every ordering of `items`.
    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    /// A GPS JPEG of a few dozen pages whose `strip` plan has a patch across the byte-4096
    /// page boundary, and that plan (computed by the planner in-process).
    /// The fixture's GPS position (which the daemon's log must never contain).
    static let location = GeoLocation(latitude: 47.3769, longitude: 8.5417, altitude: 408)

    static func fixture() throws -> (bytes: [UInt8], patches: [Patch]) {
        func jpeg(padding: Int, picture: RGBImage) throws -> (bytes: [UInt8], patches: [Patch]) {
            // A UserComment in the ExifIFD moves the GPS data that follows it.
            let fields = ExifFields(
                make: "Test", model: "Interleaving", location: Self.location,
                extraExif: [TIFFBuilderEntry(EXIFTag.userComment, .undefined([UInt8](repeating: 0x20, count: padding)))])
            let exif = ExifBuilder(byteOrder: .bigEndian).build(fields).bytes
            let bytes = try JPEGEncoder(quality: 95).encode(picture, metadata: JPEGMetadata(jfif: true, exif: exif))
            let source = MemoryByteSource(bytes)
            let plans = RedactionPlanner.plans(layout: ContainerWalker.layout(of: source, format: .jpeg), source: source)
            guard case .patches(let patches) = plans.strip else { return (bytes, []) }
            return (bytes, patches)
        }
        func straddles(_ patches: [Patch]) -> Bool { patches.contains { $0.offset < 4096 && $0.end > 4096 } }
        // The metadata comes before the image data, so a tiny picture finds the padding
        // (deterministic: same search, same answer) and the large one keeps the offsets.
        let tiny = ProceduralPicture.draw(seed: 42, width: 8, height: 8)
        guard
            let padding = stride(from: 3200, through: 4400, by: 8).first(where: {
                (try? straddles(jpeg(padding: $0, picture: tiny).patches)) == true
            })
        else { throw DaemonProcess.StartFailure(description: "no padding puts a GPS patch across the page boundary") }
        let result = try jpeg(padding: padding, picture: ProceduralPicture.draw(seed: 42, width: 1600, height: 1200))
        guard straddles(result.patches) else { throw DaemonProcess.StartFailure(description: "the large picture moved the GPS patch") }
        return result
    }

    @Test func everyInterleavingSeesItsOwnBytes() throws {
        let (original, patches) = try Self.fixture()
        var redacted = original
        PatchOverlay.apply(patches, to: &redacted, at: 0)
        try #require(redacted != original && original.count > 8 * 4096)

        let base = temporaryDirectory("photofs-mmap")
        defer { run(["/bin/rm", "-rf", base]) }
        let library = base + "/library"
        mkdir(library, 0o755)
        try ByteFiles.write(Array((library + "/gps.jpg").utf8), original)
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: base + "/catalog.sqlite")
        var unmounted = false
        defer { if !unmounted { daemon.unmount() } }
        daemon.forbiddenCoordinates = [Self.location.latitude, Self.location.longitude]

        // The daemon planned the same patches at index time.
        let record = try #require(try Catalog.open(at: base + "/catalog.sqlite").asset(at: LibraryPath("gps.jpg")))
        #expect(record.redaction.strip == .patches(patches), "the catalog's strip plan is not the planner's")
        let setup = PickerFile.write(mountpoint, "app add strip --location strip\nselect strip \(record.asset.id.rawValue)\n")
        try #require(setup.succeeded, "picker: \(setup)")
        let paths = [true: mountpoint + "/apps/strip/gps.jpg", false: mountpoint + "/library/all/gps.jpg"]
        try #require(statErrno(paths[true]!) == 0 && statErrno(paths[false]!) == 0)
        #expect(try ByteFiles.stat(Array(paths[true]!.utf8)).st_ino != ByteFiles.stat(Array(paths[false]!.utf8)).st_ino)

        func expected(_ access: Access) -> [UInt8] { access.inStripView ? redacted : original }

        /// Reads the whole file with `read(2)` in 3000-byte steps (not page-aligned).
        func read(_ path: String) throws -> [UInt8] {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ByteFiles.Failure(errno: errno) }
            defer { close(fd) }
            return try ByteFiles.readAll(fd, chunk: 3000)
        }

        func map(_ access: Access, flags: Int32) throws -> Mapping {
            let fd = open(paths[access.inStripView]!, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ByteFiles.Failure(errno: errno) }
            defer { close(fd) }
            guard let address = mmap(nil, original.count, PROT_READ, flags, fd, 0), address != MAP_FAILED else {
                throw ByteFiles.Failure(errno: errno)
            }
            return Mapping(address: address, length: original.count, access: access)
        }

        /// Asks the kernel to drop the clean, unmapped pages of both views; returns how many
        /// pages stay resident (by `mincore` on a fresh mapping, which faults nothing in).
        func dropPages() -> Int {
            var resident = 0
            for path in paths.values {
                let fd = open(path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { continue }
                defer { close(fd) }
                _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
                let pages = (original.count + 4095) / 4096
                guard let address = mmap(nil, original.count, PROT_READ, MAP_SHARED, fd, 0), address != MAP_FAILED else { continue }
                var vector = [UInt8](repeating: 0, count: pages)
                if mincore(address, original.count, &vector) == 0 { resident += vector.filter { $0 & 1 != 0 }.count }
                munmap(address, original.count)
            }
            return resident
        }

        var sequences = 0
        var accesses = 0
        var failures: [String] = []
        var residentAfterDrop = 0
        for flags in [MAP_PRIVATE, MAP_SHARED] {
            for order in Self.permutations(Access.allCases) {
                for cached in [false, true] {
                    if !cached { residentAfterDrop = max(residentAfterDrop, dropPages()) }
                    var mappings: [Mapping] = []
                    defer { mappings.forEach { $0.unmap() } }
                    let label = "\(flags == MAP_PRIVATE ? "private" : "shared"), \(cached ? "cached" : "dropped"): \(order)"
                    for access in order {
                        accesses += 1
                        if access.maps {
                            let mapping = try map(access, flags: flags)
                            mappings.append(mapping)
                            if !mapping.holds(expected(access)) { failures.append("\(label): \(access) saw the other view's bytes") }
                        } else if try read(paths[access.inStripView]!) != expected(access) {
                            failures.append("\(label): \(access) saw the other view's bytes")
                        }
                    }
                    // Mappings made before the other view was read still show their own bytes.
                    for mapping in mappings where !mapping.holds(expected(mapping.access)) {
                        failures.append("\(label): the \(mapping.access) mapping changed by the end")
                    }
                    sequences += 1
                }
            }
        }
        print(
            "mmap/read interleavings: \(sequences) sequences, \(accesses) accesses, \(failures.count) wrong; "
                + "pages still resident after a drop: \(residentAfterDrop)")
        #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
        #expect(sequences == 2 * 24 * 2)
        // The "dropped" runs start cold only if the kernel really dropped the pages.
        #expect(residentAfterDrop == 0, "pages stayed cached after POSIX_FADV_DONTNEED: the cold runs were warm")
        #expect(daemon.unmount() == 0, "daemon log: \(daemon.log)")
        unmounted = true
    }
}
