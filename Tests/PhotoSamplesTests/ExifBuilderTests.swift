import Foundation
import MediaFormats
import TestSupport
import Testing

@testable import PhotoSamples

/// EXIF written by `ExifBuilder` into a JPEG, read back by exiftool: the values that
/// photofs indexes, in both byte orders, with no warning or error.
@Suite(.enabled(if: ExternalTools.exiftool != nil, "exiftool is not installed (apt-get install libimage-exiftool-perl)"))
struct ExifBuilderTests {
    static let cases: [(TIFFByteOrder, GeoLocation)] = [
        (.littleEndian, GeoLocation(latitude: 48.858370, longitude: 2.294481, altitude: 35.25)),
        (.bigEndian, GeoLocation(latitude: -33.856812, longitude: 151.215347, altitude: 5)),
        (.littleEndian, GeoLocation(latitude: -22.951911, longitude: -43.210533, altitude: 700)),
        (.bigEndian, GeoLocation(latitude: 31.559012, longitude: 35.473245, altitude: -430.5)),
    ]

    @Test(arguments: cases)
    func exiftoolReadsWhatWasWritten(order: TIFFByteOrder, location: GeoLocation) throws {
        let fields = ExifFields(
            make: "NIKON CORPORATION", model: "NIKON D70", orientation: 8, software: "Ver.2.00",
            taken: CaptureDate(year: 2019, month: 9, day: 9, hour: 14, minute: 49, second: 29, utcOffsetMinutes: -270),
            pixelWidth: 48, pixelHeight: 32, lensModel: "AF-S DX Zoom-Nikkor 18-70mm", location: location)
        let exif = ExifBuilder(byteOrder: order).build(fields).bytes
        let image = ProceduralPicture.draw(seed: 42, width: 48, height: 32)
        let jpeg = try JPEGEncoder().encode(image, metadata: JPEGMetadata(exif: exif))
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("exif.jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))

        let info = try #require(try ExternalTools.exiftoolJSON([path], extra: ["-G1"]).first)
        #expect(info["ExifTool:Warning"] == nil, "exiftool warns: \(info["ExifTool:Warning"] ?? "")")
        #expect(info["ExifTool:Error"] == nil)
        #expect(info["File:ExifByteOrder"] as? String == (order == .littleEndian ? "II" : "MM"))
        #expect(info["IFD0:Make"] as? String == "NIKON CORPORATION")
        #expect(info["IFD0:Model"] as? String == "NIKON D70")
        #expect(info["IFD0:Orientation"] as? Int == 8)
        #expect(info["IFD0:Software"] as? String == "Ver.2.00")
        #expect(info["ExifIFD:DateTimeOriginal"] as? String == "2019:09:09 14:49:29")
        #expect(info["ExifIFD:OffsetTimeOriginal"] as? String == "-04:30")
        #expect(info["ExifIFD:ExifImageWidth"] as? Int == 48)
        #expect(info["ExifIFD:ExifImageHeight"] as? Int == 32)
        #expect(info["ExifIFD:LensModel"] as? String == "AF-S DX Zoom-Nikkor 18-70mm")
        let latitude = try #require(info["Composite:GPSLatitude"] as? Double)
        let longitude = try #require(info["Composite:GPSLongitude"] as? Double)
        let altitude = try #require(info["Composite:GPSAltitude"] as? Double)
        #expect(abs(latitude - location.latitude) < 1e-6)
        #expect(abs(longitude - location.longitude) < 1e-6)
        #expect(abs(altitude - (location.altitude ?? 0)) < 0.01)
    }

    @Test func extraEntriesLandInTheirDirectories() throws {
        var fields = ExifFields(make: "Apple", model: "iPhone 13")
        fields.extraIFD0 = [TIFFBuilderEntry(0x013B, .ascii("Ann Example"))]
        fields.extraExif = [TIFFBuilderEntry(EXIFTag.userComment, .undefined(Array("ASCII\0\0\0Screenshot".utf8)))]
        fields.extraGPS = [TIFFBuilderEntry(0x001D, .ascii("2024:06:15"))]
        let jpeg = try JPEGEncoder().encode(
            ProceduralPicture.draw(seed: 1, width: 16, height: 16),
            metadata: JPEGMetadata(exif: ExifBuilder(byteOrder: .bigEndian).build(fields).bytes))
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("extra.jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        let info = try #require(try ExternalTools.exiftoolJSON([path], extra: ["-G1"]).first)
        #expect(info["IFD0:Artist"] as? String == "Ann Example")
        #expect(info["ExifIFD:UserComment"] as? String == "Screenshot")
        #expect(info["GPS:GPSDateStamp"] as? String == "2024:06:15")
        #expect(info["GPS:GPSLatitude"] == nil)
        #expect(info["ExifTool:Warning"] == nil)
    }

    @Test func xmpPacketCarriesDateAndLocationThatExiftoolReads() throws {
        let taken = CaptureDate(year: 2024, month: 6, day: 15, hour: 8, minute: 0, second: 1, utcOffsetMinutes: 120)
        let location = GeoLocation(latitude: -22.951911, longitude: -43.210533)
        let xmp = XMPPacket.make(taken: taken, location: location, creatorTool: "Tom & \"Jerry\" <1.0>")
        let jpeg = try JPEGEncoder().encode(ProceduralPicture.draw(seed: 5, width: 24, height: 16), metadata: JPEGMetadata(xmp: xmp))
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("xmp.jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        let info = try #require(try ExternalTools.exiftoolJSON([path], extra: ["-G1"]).first)
        #expect(info["ExifTool:Warning"] == nil && info["ExifTool:Error"] == nil)
        #expect(info["XMP-xmp:CreateDate"] as? String == "2024:06:15 08:00:01+02:00")
        #expect(info["XMP-xmp:CreatorTool"] as? String == "Tom & \"Jerry\" <1.0>")
        let latitude = try #require(info["XMP-exif:GPSLatitude"] as? Double)
        let longitude = try #require(info["XMP-exif:GPSLongitude"] as? Double)
        #expect(abs(latitude - location.latitude) < 1e-6 && abs(longitude - location.longitude) < 1e-6)
    }
}
