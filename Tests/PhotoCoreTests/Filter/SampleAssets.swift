import MediaFormats

@testable import PhotoCore

/// A small library of hand-built assets, one per interesting case, named by a letter.
/// Filter and picker tests state which letters a filter should match.
enum SampleAssets {
    static func asset(
        _ letter: String, _ path: String, _ format: MediaFormat, date: CaptureDate? = nil, source: DateSource = .dateTimeOriginal,
        mtime: CaptureDate = CaptureDate(year: 2020, month: 1, day: 1), make: String? = nil, model: String? = nil, lens: String? = nil,
        orientation: Int? = nil, width: Int? = nil, height: Int? = nil, location: GeoLocation? = nil, exif: Bool = false,
        software: String? = nil, saysScreenshot: Bool = false, size: Int64
    ) -> Asset {
        let metadata = MediaMetadata(
            format: format, captureDate: date, dateSource: date == nil ? .fileModification : source, make: make, model: model, lens: lens,
            orientation: orientation, width: width, height: height, location: location, hasExif: exif, software: software,
            saysScreenshot: saysScreenshot)
        let id = id(letter)
        return Asset(
            id: id, path: LibraryPath(path), size: size, mtimeNanoseconds: unixNanos(mtime), inode: 1, metadata: metadata,
            // Analysed with nothing to patch: an unplanned asset is withheld from every view
            // that hides location (`AppVisibility`).
            redaction: RedactionPlans(strip: .identity, coarse: .identity))
    }

    /// The asset id of a letter: ten zeros and the letter's ASCII code in hex ("A" is 000000000041).
    static func id(_ letter: String) -> AssetID {
        AssetID(String(repeating: "0", count: 10) + String(letter.utf8.first ?? 0, radix: 16))!
    }

    /// Nanoseconds since 1970 of a UTC wall-clock time (days-from-civil).
    static func unixNanos(_ d: CaptureDate) -> Int64 {
        let y = Int64(d.month <= 2 ? d.year - 1 : d.year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(d.month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(d.day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return (days * 86_400 + Int64(d.hour * 3600 + d.minute * 60 + d.second)) * 1_000_000_000
    }

    static let all: [String: Asset] = [
        "A": asset(
            "A", "Trips/2024/IMG_0001.JPG", .jpeg, date: CaptureDate(year: 2024, month: 6, day: 15, hour: 10), make: "Canon",
            model: "Canon EOS 40D", lens: "EF-S17-85mm f/4-5.6 IS USM", orientation: 6, width: 3888, height: 2592,
            location: GeoLocation(latitude: 1, longitude: 2), exif: true, size: 3_500_000),
        "B": asset(
            "B", "Trips/2024/x/IMG_0002.HEIC", .heic, date: CaptureDate(year: 2023, month: 12, day: 31, hour: 23, minute: 59, second: 59),
            make: "Apple", model: "iPhone 13", lens: "iPhone 13 back dual wide camera 5.1mm f/1.6", orientation: 1, width: 4032,
            height: 3024, location: GeoLocation(latitude: -3, longitude: 4), exif: true, size: 2_400_000),
        "C": asset(
            "C", "Trips/20245/clip.mov", .mov, date: CaptureDate(year: 2024, month: 1, day: 1), source: .quickTime, width: 1920,
            height: 1080,
            size: 50_000_000),
        "D": asset(
            "D", "Screens/Screenshot 2024-03-02.png", .png, mtime: CaptureDate(year: 2024, month: 3, day: 2, hour: 12), width: 2880,
            height: 1800, size: 800_000),
        "E": asset(
            "E", "Pano/PANO_0001.jpg", .jpeg, date: CaptureDate(year: 2022, month: 8, day: 10), make: "SAMSUNG", model: "SM-G991B",
            orientation: 1, width: 8000, height: 3000, exif: true, size: 12_000_000),
        "F": asset(
            "F", "docs/diagram.png", .png, mtime: CaptureDate(year: 2021, month: 5, day: 5), width: 1000, height: 500,
            software: "Inkscape 1.2",
            size: 1024),
        "G": asset(
            "G", "Pictures/capture.png", .png, mtime: CaptureDate(year: 2025, month: 1, day: 1), width: 1920, height: 1080,
            software: "gnome-screenshot", size: 300_000),
        "H": asset(
            "H", "DCIM/IMG_9999.jpg", .jpeg, date: CaptureDate(year: 2024, month: 6, day: 1), source: .createDate,
            location: GeoLocation(latitude: 200, longitude: 0), exif: true, saysScreenshot: true, size: 100_000),
    ]

    /// The letters of the sample assets a filter matches, sorted.
    static func letters(matching filter: Filter) -> String {
        all.filter { filter.matches($0.value) }.keys.sorted().joined()
    }
}
