import Foundation
import Glibc
import MediaFormats
import PhotoCatalog
import PhotoCore
import PhotoSamples
import Testing

/// A granted photo without GPS overwritten in place by a same-size photo with GPS, its
/// mtime set back (`dd conv=notrunc` then `touch -d OLD`): size, mtime and inode are the
/// catalog's, only the ctime tells. Through a real mount, the strip view must never serve
/// the new file's coordinates: not right after the write, not after `photofs index`, not
/// after a remount.
@Suite(
    "redaction: a disguised same-size overwrite through a real mount", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct DisguisedOverwriteTests {
    static let location = GeoLocation(latitude: -33.8568, longitude: 151.2153, altitude: 58)

    /// Two JPEGs of the same picture and size: one with GPS (and its strip patches), one
    /// without, whose EXIF is padded with a UserComment to the same length.
    /// The mtime given to staged photos, so that a rewrite can set it back.
    static let oldTime = timespec(tv_sec: 1_500_000_000, tv_nsec: 0)

    /// Writes `clean` as `library/photo.jpg` below `base` with `oldTime` as its times and
    /// makes the mountpoint `mnt`; returns the paths, the catalog's included.
    static func stage(_ clean: [UInt8], in base: String) throws -> (library: String, file: String, mountpoint: String, catalog: String) {
        let library = base + "/library"
        mkdir(library, 0o755)
        let file = library + "/photo.jpg"
        try ByteFiles.write(Array(file.utf8), clean)
        var times = [oldTime, oldTime]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        return (library, file, mountpoint, base + "/catalog.sqlite")
    }

    static func pair() throws -> (clean: [UInt8], gps: [UInt8], patches: [Patch]) {
        let picture = ProceduralPicture.draw(seed: 7, width: 320, height: 240)
        func jpeg(location: GeoLocation?, padding: Int) throws -> [UInt8] {
            let fields = ExifFields(
                make: "Test", model: "Overwrite", location: location,
                extraExif: padding > 0 ? [TIFFBuilderEntry(EXIFTag.userComment, .undefined([UInt8](repeating: 0x20, count: padding)))] : [])
            let exif = ExifBuilder(byteOrder: .bigEndian).build(fields).bytes
            return try JPEGEncoder(quality: 90).encode(picture, metadata: JPEGMetadata(jfif: true, exif: exif))
        }
        let gps = try jpeg(location: Self.location, padding: 0)
        guard let clean = try (1...400).lazy.map({ try jpeg(location: nil, padding: $0) }).first(where: { $0.count == gps.count }) else {
            throw DaemonProcess.StartFailure(description: "no padding makes the clean JPEG as long as the GPS one")
        }
        let source = MemoryByteSource(gps)
        let plans = RedactionPlanner.plans(layout: ContainerWalker.layout(of: source, format: .jpeg), source: source)
        guard case .patches(let patches) = plans.strip, !patches.isEmpty else {
            throw DaemonProcess.StartFailure(description: "the GPS JPEG has no strip patches")
        }
        return (clean, gps, patches)
    }

    /// Whether `served` shows any of the GPS file's location bytes where its plan patches them.
    static func showsLocation(_ served: [UInt8], gps: [UInt8], patches: [Patch]) -> Bool {
        guard served.count == gps.count else { return false }
        return patches.contains { patch in
            let range = Int(patch.offset)..<Int(patch.end)
            return served[range] == gps[range]
        }
    }

    @Test func theStripViewNeverServesTheNewCoordinates() throws {
        let (clean, gps, patches) = try Self.pair()
        try #require(!Self.showsLocation(clean, gps: gps, patches: patches), "the clean file already holds the GPS bytes")

        let base = temporaryDirectory("photofs-overwrite")
        defer { run(["/bin/rm", "-rf", base]) }
        let (library, file, mountpoint, catalog) = try Self.stage(clean, in: base)
        var times = [Self.oldTime, Self.oldTime]
        var daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog)
        var mounted = true
        defer { if mounted { daemon.unmount() } }
        daemon.forbiddenCoordinates = [Self.location.latitude, Self.location.longitude]

        let record = try #require(try Catalog.open(at: catalog).asset(at: LibraryPath("photo.jpg")))
        #expect(record.asset.metadata.location == nil)
        let setup = PickerFile.write(mountpoint, "app add viewer --location strip\nselect viewer \(record.asset.id.rawValue)\n")
        try #require(setup.succeeded, "picker: \(setup)")
        let view = mountpoint + "/apps/viewer/photo.jpg"
        #expect(try ByteFiles.read(Array(view.utf8)) == clean)

        // The disguised overwrite: same bytes count, in place, mtime set back.
        let fd = open(file, O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        #expect(gps.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == gps.count)
        close(fd)
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        let after = try ByteFiles.stat(Array(file.utf8))
        try #require(after.st_size == clean.count && after.st_mtim.tv_sec == Self.oldTime.tv_sec, "the overwrite is not disguised")

        /// Reads the app's view: whatever it answers (an error, other bytes), never the GPS.
        func check(_ moment: String) {
            guard let served = try? ByteFiles.read(Array(view.utf8)) else { return }
            let leaked = Self.showsLocation(served, gps: gps, patches: patches)
            #expect(!leaked, "\(moment): the strip view served the new file's GPS")
        }
        check("right after the overwrite")
        let indexed = run([DaemonProcess.binary, "index", library, "--catalog", catalog])
        #expect(indexed.status == 0, "photofs index: \(indexed.output)")
        check("after photofs index")
        // The index read the file again: the catalog now knows its location.
        let fresh = try #require(try Catalog.open(at: catalog).asset(at: LibraryPath("photo.jpg")))
        #expect(fresh.asset.metadata.location != nil)
        #expect(fresh.asset.ctimeNanoseconds == Int64(after.st_ctim.tv_sec) * 1_000_000_000 + Int64(after.st_ctim.tv_nsec))

        #expect(daemon.unmount() == 0, "daemon log: \(daemon.log)")
        mounted = false
        daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog)
        mounted = true
        daemon.forbiddenCoordinates = [Self.location.latitude, Self.location.longitude]
        check("after a remount")
        #expect(daemon.unmount() == 0, "daemon log: \(daemon.log)")
        mounted = false
    }
}
