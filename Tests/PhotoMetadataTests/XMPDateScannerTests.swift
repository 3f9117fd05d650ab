import MediaFormats
import PhotoCore
import Testing

@testable import PhotoMetadata

@Suite struct XMPDateScannerTests {
    @Test(arguments: [
        (#"<d exif:DateTimeOriginal="2019-09-09T14:49:29"/>"#, "2019-09-09 14:49:29"),
        (#"<d xmp:CreateDate = '2019-09-09T14:49:29.123+05:30'/>"#, "2019-09-09 14:49:29+05:30"),
        ("<photoshop:DateCreated>2018-01-02T03:04Z</photoshop:DateCreated>", "2018-01-02 03:04:00+00:00"),
        ("<exif:DateTimeOriginal>2017-05-06</exif:DateTimeOriginal>", "2017-05-06 00:00:00"),
        // DateTimeOriginal wins over CreateDate wherever they sit in the packet.
        (#"<d xmp:CreateDate="2001-01-01T00:00:00" exif:DateTimeOriginal="2002-02-02T02:02:02"/>"#, "2002-02-02 02:02:02"),
        // An unusable first candidate falls through to the next property.
        (#"<d exif:DateTimeOriginal="" xmp:CreateDate="2003-03-03T03:03:03"/>"#, "2003-03-03 03:03:03"),
    ])
    func findsDates(packet: String, expected: String) {
        #expect(XMPDateScanner.captureDate(in: Array(packet.utf8))?.description == expected)
    }

    @Test(arguments: [
        #"<d xmp:CreateDate="2019"/>"#, #"<d xmp:CreateDate="2019-13-01T00:00:00"/>"#,
        #"<d xmp:CreateDate="2019-01-01T25:00:00"/>"#, #"<d xmp:ModifyDate="2019-01-01T00:00:00"/>"#,
        #"<d xmp:CreateDate="2019-01-01T10:00:00+99:00"/>"#, "<exif:DateTimeOriginal", "",
    ])
    func refusesNonDates(packet: String) {
        #expect(XMPDateScanner.captureDate(in: Array(packet.utf8)) == nil)
    }
}

@Suite struct XMPHintsTests {
    @Test func creatorToolAndScreenshotComment() {
        let packet = Array(
            """
            <rdf:Description xmp:CreatorTool=" Screenshot Tool 2.1 ">
            <exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">Screenshot</rdf:li></rdf:Alt></exif:UserComment>
            </rdf:Description>
            """.utf8)
        #expect(XMPHints.creatorTool(in: packet) == "Screenshot Tool 2.1")
        #expect(XMPHints.saysScreenshot(in: packet))
    }

    @Test func noHints() {
        let packet = Array(#"<d xmp:CreatorTool=""><exif:UserComment>holiday</exif:UserComment> Screenshot</d>"#.utf8)
        #expect(XMPHints.creatorTool(in: packet) == nil)
        #expect(!XMPHints.saysScreenshot(in: packet))
        #expect(!XMPHints.saysScreenshot(in: Array("<exif:UserComment>Screenshot".utf8)))
    }
}
