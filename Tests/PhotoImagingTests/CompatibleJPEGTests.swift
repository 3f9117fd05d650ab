import Foundation
import Glibc
import MediaFormats
import PhotoCore
import PhotoSamples
import TestSupport
import Testing

@testable import PhotoImaging

/// The compatible JPEG of a HEIC made here, and the bounded cache that keeps it.
@Suite struct CompatibleJPEGTests {
    @Test func heicBecomesAJPEGWithItsEXIFAndTheLocationPolicy() throws {
        guard let encoder = Fixture.tool("heif-enc"), Fixture.tool("exiftool") != nil else {
            try Skip.because("a prerequisite is missing (the line above says which)")
        }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let fields = ExifFields(
            make: "Canon", model: "EOS R5", orientation: 1,
            taken: CaptureDate(year: 2024, month: 6, day: 1, hour: 10, minute: 0, second: 0),
            location: GeoLocation(latitude: 48.8584, longitude: 2.2945))
        try Fixture.heic(encoder, of: Fixture.quadrants(width: 320, height: 240), exif: fields, in: dir, named: "q")
        let heic = Fixture.read(dir + "/q.heic")

        let stripped = try CompatibleJPEG.transcode(bytes: heic, quality: 80, location: .strip)
        let image = try JPEGCodec.decode(stripped)
        #expect(image.width == 320 && image.height == 240 && Fixture.corners(image) == "RGBW")
        Fixture.write(stripped, to: dir + "/strip.jpg")
        let strip = try Self.tags(dir + "/strip.jpg")
        #expect(strip["IFD0:Make"] == "Canon" && strip["IFD0:Model"] == "EOS R5")
        #expect(strip["IFD0:Orientation"] == "1")
        #expect(strip["IFD0:ModifyDate"] == "2024:06:01 10:00:00")
        #expect(strip.keys.filter { $0.hasPrefix("GPS:") && $0 != "GPS:GPSVersionID" }.isEmpty)
        #expect(strip["File:FileType"] == "JPEG")

        Fixture.write(try CompatibleJPEG.transcode(bytes: heic, quality: 80, location: .keep), to: dir + "/keep.jpg")
        let keep = try Self.tags(dir + "/keep.jpg")
        #expect(Double(keep["GPS:GPSLatitude"] ?? "") ?? 0 > 48.8)
        Fixture.write(try CompatibleJPEG.transcode(bytes: heic, quality: 80, location: .coarse), to: dir + "/coarse.jpg")
        let coarse = Double(try Self.tags(dir + "/coarse.jpg")["GPS:GPSLatitude"] ?? "") ?? 0
        #expect(coarse != 48.8584 && abs(coarse - 48.8584) < 0.02)
    }

    @Test func qualityChangesTheSizeAndNonHEIFIsRefused() throws {
        guard let encoder = Fixture.tool("heif-enc") else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        try Fixture.heic(encoder, of: Fixture.quadrants(width: 320, height: 240), in: dir, named: "q")
        let heic = Fixture.read(dir + "/q.heic")
        let low = try CompatibleJPEG.transcode(bytes: heic, quality: 10, location: .strip)
        let high = try CompatibleJPEG.transcode(bytes: heic, quality: 100, location: .strip)
        #expect(low.count < high.count)
        #expect(throws: ImagingError.self) {
            try CompatibleJPEG.transcode(bytes: Fixture.read(dir + "/q.jpg"), quality: 80, location: .strip)
        }
        #expect(throws: ImagingError.self) { try CompatibleJPEG.transcode(bytes: Array(heic.prefix(200)), quality: 80, location: .strip) }
    }

    @Test func cacheIsKeyedBySourceAndEvictsTheLeastRecentlyUsed() throws {
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let cache = CompatibleCache(root: dir + "/cache", maxBytes: 250)
        var keys: [CompatibleCache.Key] = []
        for i in 0..<3 {
            Fixture.write([UInt8](repeating: UInt8(i), count: 10), to: dir + "/\(i).heic")
            keys.append(try CompatibleCache.Key(path: Array((dir + "/\(i).heic").utf8), quality: 80, location: .strip))
        }
        #expect(Set(keys.map { cache.path(for: $0) }).count == 3)
        #expect(try CompatibleCache.Key(path: Array((dir + "/0.heic").utf8), quality: 80, location: .keep) != keys[0])
        try cache.store([UInt8](repeating: 1, count: 100), for: keys[0])
        try cache.store([UInt8](repeating: 2, count: 100), for: keys[1])
        // Using the first makes the second the least recently used one.
        var old = [timespec(tv_sec: 1_000, tv_nsec: 0), timespec(tv_sec: 1_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, cache.path(for: keys[0]), &old, 0)
        utimensat(AT_FDCWD, cache.path(for: keys[1]), &old, 0)
        #expect(cache.lookup(keys[0]) == 100)
        try cache.store([UInt8](repeating: 3, count: 100), for: keys[2])
        #expect(cache.lookup(keys[0]) == 100)
        #expect(cache.lookup(keys[1]) == nil)
        #expect(cache.lookup(keys[2]) == 100)
        var info = stat()
        #expect(stat(cache.path(for: keys[2]), &info) == 0 && info.st_mode & 0o777 == 0o600)
        // A changed source has another key: its old JPEG is not found.
        Fixture.write([UInt8](repeating: 9, count: 11), to: dir + "/0.heic")
        #expect(cache.lookup(try CompatibleCache.Key(path: Array((dir + "/0.heic").utf8), quality: 80, location: .strip)) == nil)
    }

    /// exiftool's `-n -a -G1` tags of one file, as text.
    static func tags(_ path: String) throws -> [String: String] {
        let result = try Fixture.run("/usr/bin/env", ["exiftool", "-n", "-json", "-a", "-G1", path])
        guard let rows = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]], let row = rows.first else {
            return [:]
        }
        return row.mapValues { "\($0)" }
    }
}
