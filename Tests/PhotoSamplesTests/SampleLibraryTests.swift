import Foundation
import MediaFormats
import TestSupport
import Testing

@testable import PhotoSamples

/// The generated library: deterministic, varied, plausible, and what exiftool reads from
/// each file is what the plan says.
@Suite struct SampleLibraryTests {
    @Test func sameSeedSameBytesDifferentSeedDifferentBytes() throws {
        let a = try SampleLibrary(seed: 7, count: 30).files()
        let b = try SampleLibrary(seed: 7, count: 30).files()
        let c = try SampleLibrary(seed: 8, count: 30).files()
        #expect(a == b)
        #expect(a.map(\.bytes) != c.map(\.bytes))
        #expect(zip(a, c).allSatisfy { $0.bytes != $1.bytes }, "every photo differs under another seed")
        #expect(Set(a.map(\.bytes)).count == a.count, "every photo of a library has its own bytes")
    }

    @Test func picturesDifferPerPhotoEvenWithoutEXIF() throws {
        let library = SampleLibrary(seed: 1, count: 200)
        let bare = library.photos.indices.filter { !library.photos[$0].hasExif }
        try #require(bare.count >= 5)
        let images = bare.map { ProceduralPicture.draw(seed: library.photos[$0].pictureSeed, width: 160, height: 120).pixels }
        #expect(Set(images).count == images.count)
    }

    @Test(arguments: [40, 1000])
    func libraryLooksLikeARealOne(count: Int) {
        let photos = SampleLibrary(seed: 1, count: count).photos
        #expect(photos.count == count)
        #expect(Set(photos.map(\.relativePath)).count == count, "paths are unique")
        let basenames = Dictionary(grouping: photos.map { $0.relativePath.split(separator: "/").last! }, by: { $0 })
        #expect(basenames.values.contains { $0.count > 1 }, "some basenames repeat across folders")
        #expect(photos.contains { $0.relativePath.split(separator: "/").last!.contains(" ") }, "a file name with a space")
        #expect(photos.contains { $0.relativePath.hasPrefix("Camera Roll/") })
        #expect(photos.contains { $0.relativePath.hasPrefix("2023/Summer trip/") })
        #expect(Set(photos.compactMap { $0.camera?.model }).count >= 5, "several camera models")
        #expect(Set(photos.compactMap { $0.camera?.byteOrder }).count == 2, "both byte orders")
        #expect(photos.contains { !$0.hasExif })
        #expect(photos.contains { ($0.orientation ?? 1) != 1 })
        #expect(Set(photos.map(\.taken.year)).count >= 3, "dates over a few years")
        let located = Double(photos.count { $0.location != nil }) / Double(count)
        #expect(located > 0.3 && located < 0.7, "GPS on roughly half: \(located)")
        #expect(photos.contains { ($0.location?.latitude ?? 0) < 0 } || count < 100, "southern hemisphere too")
        #expect(photos.allSatisfy { $0.location?.isValid ?? true })
    }

    @Test(.enabled(if: ExternalTools.exiftool != nil, "exiftool is not installed (apt-get install libimage-exiftool-perl)"))
    func exiftoolReadsEveryPlannedValueWithoutWarnings() throws {
        let library = SampleLibrary(seed: 3, count: 60)
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var expected: [String: SamplePhoto] = [:]
        for (index, photo) in library.photos.enumerated() {
            let url = directory.appendingPathComponent(photo.relativePath)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(try library.file(at: index).bytes).write(to: url)
            expected[url.path] = photo
        }
        let infos = try ExternalTools.exiftoolJSON(["-r", directory.path], extra: ["-G1"])
        #expect(infos.count == library.photos.count)
        for info in infos {
            let path = try #require(info["SourceFile"] as? String)
            let photo = try #require(expected[path])
            #expect(
                info["ExifTool:Warning"] == nil && info["ExifTool:Error"] == nil,
                "\(path): \(info["ExifTool:Warning"] ?? info["ExifTool:Error"] ?? "")")
            #expect(info["File:FileType"] as? String == "JPEG")
            #expect(info["File:ImageWidth"] as? Int == photo.width && info["File:ImageHeight"] as? Int == photo.height)
            guard photo.hasExif, let camera = photo.camera else {
                #expect(info["IFD0:Make"] == nil && info["ExifIFD:DateTimeOriginal"] == nil, "\(path) has no EXIF")
                continue
            }
            #expect(info["IFD0:Make"] as? String == camera.make)
            #expect(info["IFD0:Model"] as? String == camera.model)
            #expect(info["IFD0:Orientation"] as? Int == photo.orientation.map(Int.init))
            #expect(info["ExifIFD:DateTimeOriginal"] as? String == ExifBuilder.exifDate(photo.taken))
            #expect(info["ExifIFD:OffsetTimeOriginal"] as? String == photo.taken.utcOffsetMinutes.map(ExifBuilder.offsetText))
            if let location = photo.location {
                let latitude = try #require(info["Composite:GPSLatitude"] as? Double)
                let longitude = try #require(info["Composite:GPSLongitude"] as? Double)
                #expect(abs(latitude - location.latitude) < 1e-6 && abs(longitude - location.longitude) < 1e-6, "\(path)")
            } else {
                #expect(info["Composite:GPSLatitude"] == nil)
            }
            if photo.hasXMP {
                #expect(info["XMP-exif:GPSLatitude"] != nil, "\(path) carries XMP location")
            }
        }
    }

    @Test func civilDatesConvertToUnixSeconds() {
        #expect(unixSeconds(year: 1970, month: 1, day: 1) == 0)
        #expect(unixSeconds(year: 2024, month: 6, day: 15, hour: 8) == 1_718_438_400)
        #expect(unixSeconds(year: 2000, month: 3, day: 1) == 951_868_800)
        #expect(
            CaptureDate(unixSeconds: unixSeconds(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59)).description
                == "2024-02-29 23:59:59+00:00")
    }
}
