import MediaFormats
import Testing

@testable import PhotoCore

@Suite struct ModelTests {
    @Test(arguments: [
        ("2019:09:09 14:49:29", "2019-09-09 14:49:29"),
        ("2024-06-15T08:00:01", "2024-06-15 08:00:01"),
    ])
    func parsesExifDates(text: String, expected: String) {
        #expect(CaptureDate(exif: text)?.description == expected)
    }

    @Test(arguments: ["0000:00:00 00:00:00", "    :  :     :  :  ", "", "2019:13:01 00:00:00"])
    func rejectsBlankOrInvalidDates(text: String) {
        #expect(CaptureDate(exif: text) == nil)
    }

    @Test func unixSecondsToCivilDate() {
        #expect(CaptureDate(unixSeconds: 0).description == "1970-01-01 00:00:00+00:00")
        #expect(CaptureDate(unixSeconds: 1_718_438_400).description == "2024-06-15 08:00:00+00:00")
        #expect(CaptureDate(unixSeconds: -1).description == "1969-12-31 23:59:59+00:00")
    }

    @Test func libraryPathKeepsNonUTF8Bytes() {
        let path = LibraryPath(bytes: Array("Trips/a".utf8) + [0xFF, 0x0A] + Array(".JPG".utf8))
        #expect(path.components.count == 2)
        #expect(path.fileExtension == "jpg")
        #expect(path.folder == LibraryPath("Trips"))
        #expect(path.fileName.contains(0xFF))
    }

    @Test func libraryPathStaysInsideOnlyWithoutParentOrRoot() {
        for inside in ["a.jpg", "Trips/a.jpg", "..a/b", "a../b", "a/...", ".../x", "a/.b"] {
            #expect(LibraryPath(inside).staysInsideLibrary, "\(inside)")
        }
        for outside in ["", "/etc/passwd", "..", "../a", "a/..", "a/../b", "a//../b"] {
            #expect(!LibraryPath(outside).staysInsideLibrary, "\(outside)")
        }
    }

    @Test func assetIDAcceptsOnlyTwelveHexDigits() {
        #expect(AssetID("3F9A1C0D2B7E")?.rawValue == "3f9a1c0d2b7e")
        #expect(AssetID("3f9a1c0d2b7") == nil)
        #expect(AssetID("3f9a1c0d2b7g") == nil)
    }
}
