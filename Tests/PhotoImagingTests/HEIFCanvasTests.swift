import Foundation
import TestSupport
import Testing

@testable import PhotoImaging

/// Derived HEIF images (grids and overlays) declare their canvas in their own data, apart
/// from `ispe`; a canvas past the HEIF limit is refused before libheif allocates it.
@Suite struct HEIFCanvasTests {
    /// An 820-byte file the imaging fuzzer made: its primary item is an overlay (`iovl`)
    /// whose `ispe` says 96 × 64 and whose data declares a 24,929 × 24,929 canvas, and its
    /// thumbnail is a 32 × 20 grid. libheif 1.15 allocated about 3.7 GB for it.
    static var overlayFile: [UInt8] { regression("heif-overlay-canvas-oom.bin") }

    /// The fuzzer's next find, made from the first: the same overlay behind a damaged `iref`
    /// box that libheif reads past and the item table does not.
    static var brokenReferencesFile: [UInt8] { regression("heif-overlay-broken-iref-oom.bin") }

    static func regression(_ name: String) -> [UInt8] {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        return Fixture.read(url.appendingPathComponent("Fuzz/regressions/" + name).path)
    }

    @Test func theItemTableReadsTheCanvasesAnOverlayAndAGridDeclare() throws {
        let table = try #require(HEIFItemTable(Self.overlayFile))
        #expect(table.types[table.primary] == "iovl")
        let overlay = try #require(table.declaredCanvas(of: table.primary))
        #expect(overlay.width == 24_929 && overlay.height == 24_929)
        #expect(throws: ImagingError.tooLarge(width: 24_929, height: 24_929)) {
            try table.checkDerivedCanvases(maxPixels: DecodeLimits.maxHEIFPixels)
        }
        let grid = try #require(table.types.first(where: { $0.value == "grid" })?.key)
        let canvas = try #require(table.declaredCanvas(of: grid))
        #expect(canvas.width == 32 && canvas.height == 20)
        #expect(table.declaredCanvas(of: try #require(table.types.first(where: { $0.value == "hvc1" })?.key)) == nil)
    }

    @Test func anOverlayWhoseCanvasIsPastTheLimitIsRefusedBeforeDecoding() {
        let file = Self.overlayFile
        #expect(throws: ImagingError.tooLarge(width: 24_929, height: 24_929)) { try HEIFCodec.decode(file) }
        #expect(throws: ImagingError.tooLarge(width: 24_929, height: 24_929)) {
            try HEIFCodec.decode(file, thumbnailBox: 128)
        }
        #expect(throws: ImagingError.self) { try CompatibleJPEG.transcode(bytes: file, quality: 80, location: .strip) }
    }

    /// A canvas past the HEIF limit but within the general one (10,000 × 10,000) would be
    /// decoded whole if only the decoded picture were checked: it is refused by its declaration.
    @Test func aCanvasBetweenTheHEIFAndTheGeneralLimitIsRefusedToo() {
        var file = Self.overlayFile
        // The overlay's data starts at byte 688 of the file: version, flags, four 16-bit fill
        // values, then its 16-bit width and height.
        #expect(file[698..<702] == [0x61, 0x61, 0x61, 0x61])
        file.replaceSubrange(698..<702, with: [0x27, 0x10, 0x27, 0x10])
        #expect(10_000 * 10_000 > DecodeLimits.maxHEIFPixels && 10_000 * 10_000 <= DecodeLimits.maxFullPixels)
        #expect(throws: ImagingError.tooLarge(width: 10_000, height: 10_000)) { try HEIFCodec.decode(file) }
    }

    /// A file whose item table cannot be read is refused before libheif decodes it: the
    /// canvases it would allocate cannot be checked.
    @Test func aFileWhoseItemTableCannotBeReadIsRefused() {
        let file = Self.brokenReferencesFile
        #expect(HEIFItemTable(file) == nil)
        #expect(throws: ImagingError.malformed(HEIFCodec.unreadableTable)) { try HEIFCodec.decode(file, thumbnailBox: 128) }
        #expect(throws: ImagingError.malformed(HEIFCodec.unreadableTable)) { try HEIFCodec.withRGB(file, threads: 1) { _ in 0 } }
        #expect(throws: ImagingError.self) { try CompatibleJPEG.transcode(bytes: file, quality: 80, location: .strip) }
    }

    /// An item described twice could be read either way: the table refuses the file.
    @Test func anItemDescribedTwiceMakesTheTableNil() throws {
        var file = Self.overlayFile
        // The second `infe` (item 2, `hvc1`) at byte 226 becomes a second description of item 1.
        #expect(file[226 + 12..<226 + 14] == [0x00, 0x02])
        file.replaceSubrange(226 + 12..<226 + 14, with: [0x00, 0x01])
        #expect(HEIFItemTable(file) == nil)
    }
}
