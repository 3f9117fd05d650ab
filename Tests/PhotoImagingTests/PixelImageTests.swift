import Testing

@testable import PhotoImaging

/// Shrinking and turning pixels, without any codec.
@Suite struct PixelImageTests {
    @Test func fittedSizeKeepsTheShapeAndNeverEnlarges() {
        #expect(PixelImage.fittedSize(width: 6000, height: 4000, box: 256) == (256, 171))
        #expect(PixelImage.fittedSize(width: 3000, height: 4000, box: 256) == (192, 256))
        #expect(PixelImage.fittedSize(width: 100, height: 50, box: 256) == (100, 50))
        #expect(PixelImage.fittedSize(width: 10_000, height: 1, box: 128) == (128, 1))
    }

    @Test func areaAveragingMixesWhatACellCovers() {
        // Two columns, black and white, averaged into one: mid grey.
        let image = PixelImage(width: 2, height: 1, channels: 3, pixels: [0, 0, 0, 255, 255, 255])
        let shrunk = image.downscaled(toWidth: 1, height: 1)
        #expect(shrunk.pixels == [128, 128, 128])
        // A flat colour stays exactly that colour at any reduction, fractional ones too.
        let flat = PixelImage(width: 997, height: 631, filledWith: (12, 200, 77))
        let small = flat.fitted(inBox: 128)
        #expect(small.width == 128 && small.height == 81)
        #expect(Set(stride(from: 0, to: small.pixels.count, by: 3).map { small.pixels[$0...($0 + 2)].map { $0 } }) == [[12, 200, 77]])
    }

    @Test func quadrantsSurviveAShrink() {
        let small = Fixture.quadrants(width: 400, height: 300).fitted(inBox: 64)
        #expect(small.width == 64 && small.height == 48)
        #expect(Fixture.corners(small) == "RGBW")
    }

    /// Corners (top-left, top-right, bottom-right, bottom-left) after each EXIF orientation,
    /// for a stored picture whose corners read R G B W: what a viewer must show.
    @Test(arguments: [
        (1, "RGBW", false), (2, "GRWB", false), (3, "BWRG", false), (4, "WBGR", false),
        (5, "RWBG", true), (6, "WRGB", true), (7, "BGRW", true), (8, "GBWR", true),
    ])
    func orientationTurnsThePictureUpright(_ orientation: Int, _ corners: String, _ swapsSides: Bool) {
        let stored = Fixture.quadrants(width: 40, height: 30)
        let upright = stored.oriented(orientation)
        #expect(Fixture.corners(upright) == corners)
        #expect(upright.width == (swapsSides ? 30 : 40))
    }

    @Test func flatteningComposesOverWhite() {
        let image = PixelImage(width: 2, height: 1, channels: 4, pixels: [255, 0, 0, 255, 0, 0, 0, 0])
        #expect(image.flattened().pixels == [255, 0, 0, 255, 255, 255])
    }
}
