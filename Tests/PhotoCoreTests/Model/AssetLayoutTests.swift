import MediaFormats
import PhotoCore
import Testing

/// A million assets live in memory at once: their layout is part of the design. The
/// packed metadata must give back exactly what was put in, in or out of its packed range.
@Suite struct AssetLayoutTests {
    @Test func assetsAndMetadataStayCompact() {
        #expect(MemoryLayout<MediaMetadata>.stride <= 64)
        #expect(MemoryLayout<Asset>.stride <= 120)
        #expect(MemoryLayout<LibraryPath>.size <= 14)
    }

    @Test(arguments: [
        nil, CaptureDate(year: 2024, month: 6, day: 1), CaptureDate(year: 1, month: 1, day: 1, utcOffsetMinutes: -2047),
        CaptureDate(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 60, utcOffsetMinutes: 840),
        CaptureDate(year: 2024, month: 6, day: 1, utcOffsetMinutes: 0), CaptureDate(year: 0, month: 1, day: 1),
        CaptureDate(year: 123_456, month: 1, day: 1), CaptureDate(year: -5, month: 1, day: 1),
        CaptureDate(year: 2024, month: 13, day: 40, hour: 99), CaptureDate(year: 2024, month: 1, day: 1, utcOffsetMinutes: 100_000),
    ])
    func captureDatesComeBackExactly(_ date: CaptureDate?) {
        var metadata = MediaMetadata(format: .jpeg, captureDate: date)
        #expect(metadata.captureDate == date)
        metadata.captureDate = CaptureDate(year: 2000, month: 2, day: 3)
        metadata.captureDate = date
        #expect(metadata == MediaMetadata(format: .jpeg, captureDate: date))
        #expect(metadata.hashValue == MediaMetadata(format: .jpeg, captureDate: date).hashValue)
    }

    @Test(arguments: [nil, 0, 1, 8, -1, 6000, Int(Int32.max), Int(Int32.min), Int(Int32.min) + 1, Int(Int32.max) + 1, Int.max, Int.min])
    func sizesAndOrientationComeBackExactly(_ value: Int?) {
        var metadata = MediaMetadata(format: .png, orientation: value, width: value, height: value)
        #expect(metadata.orientation == value && metadata.width == value && metadata.height == value)
        metadata.width = 10
        #expect(metadata.width == 10 && metadata.height == value)
        metadata.width = value
        #expect(metadata == MediaMetadata(format: .png, orientation: value, width: value, height: value))
    }

    @Test func locationsAndFlagsComeBackExactly() {
        let places: [GeoLocation?] = [
            nil, GeoLocation(latitude: 0, longitude: 0), GeoLocation(latitude: -33.8568, longitude: 151.2153, altitude: 58),
            GeoLocation(latitude: .nan, longitude: .infinity, altitude: -0.5),
        ]
        for place in places {
            var metadata = MediaMetadata(format: .heic, location: place, hasExif: true, saysScreenshot: false, problems: ["odd"])
            #expect(metadata.location?.latitude.bitPattern == place?.latitude.bitPattern)
            #expect(metadata.location?.longitude.bitPattern == place?.longitude.bitPattern)
            #expect(metadata.location?.altitude?.bitPattern == place?.altitude?.bitPattern)
            #expect(metadata.hasExif && !metadata.saysScreenshot && metadata.problems == ["odd"])
            metadata.saysScreenshot = true
            metadata.hasExif = false
            #expect(!metadata.hasExif && metadata.saysScreenshot)
            #expect(metadata.location?.altitude?.bitPattern == place?.altitude?.bitPattern)
        }
        #expect(
            MediaMetadata(format: .jpeg, location: nil) != MediaMetadata(format: .jpeg, location: GeoLocation(latitude: 0, longitude: 0)))
    }
}
