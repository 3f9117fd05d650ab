import MediaFormats

/// Makes one thumbnail: finds the cheapest picture in the file that is large enough (an
/// embedded preview or a reduced-scale decode), turns it upright, shrinks it to the box
/// and encodes a PNG whose only ancillary chunks are the given text pairs. Nothing of the
/// source's metadata (EXIF, XMP, ICC, location) is copied. Runs in the decoder process.
public enum Thumbnailer {
    /// Files larger than this are not read whole (images only; videos are read by box).
    public static let maxImageFileSize: Int64 = 1 << 30

    /// A rendered thumbnail.
    public struct Rendered: Sendable {
        public var image: PixelImage
        public var origin: ThumbnailOrigin
    }

    /// The PNG thumbnail of the file at `path`, fitted into `box`, with `text` chunks.
    public static func png(path: [UInt8], box: Int, text: [(key: String, value: String)]) throws(ImagingError) -> (
        png: [UInt8], origin: ThumbnailOrigin
    ) {
        try png(file: FileBytes(path: path), box: box, text: text)
    }

    /// The PNG thumbnail of an open file, fitted into `box`, with `text` chunks.
    static func png(file: FileBytes, box: Int, text: [(key: String, value: String)]) throws(ImagingError) -> (
        png: [UInt8], origin: ThumbnailOrigin
    ) {
        let rendered = try render(file: file, box: box)
        let png = try PNGChunks.addingText(text, to: PNGCodec.encode(rendered.image, fast: true))
        return (png, rendered.origin)
    }

    /// The upright thumbnail pixels of the file at `path`.
    public static func render(path: [UInt8], box: Int) throws(ImagingError) -> Rendered {
        try render(file: FileBytes(path: path), box: box)
    }

    /// The upright thumbnail pixels of an open file.
    static func render(file: FileBytes, box: Int) throws(ImagingError) -> Rendered {
        guard let format = MediaSniffer.format(of: file) else { throw .unsupportedFormat("this file type") }
        if format.kind == .video {
            guard box > 0 else { throw .encodeFailed("empty thumbnail box") }
            // A poster frame when libavcodec decodes the video; the drawn frame otherwise.
            if let poster = try? VideoPoster.poster(of: file.descriptor, size: file.size, box: box) {
                return Rendered(image: VideoPlaceholder.stamped(poster.image, seconds: poster.seconds), origin: .videoFrame)
            }
            let layout = ContainerWalker.layout(of: file, format: format)
            let image = VideoPlaceholder.image(
                box: box, videoWidth: layout.movie?.width ?? layout.pixelWidth, videoHeight: layout.movie?.height ?? layout.pixelHeight,
                seconds: MovieDuration.seconds(of: file))
            return Rendered(image: image, origin: .videoPlaceholder)
        }
        return try render(bytes: file.all(limit: maxImageFileSize), format: format, box: box)
    }

    /// The upright thumbnail pixels of an image already in memory (`format` from
    /// `MediaSniffer`; nil sniffs it).
    public static func render(bytes: [UInt8], format: MediaFormat? = nil, box: Int) throws(ImagingError) -> Rendered {
        guard box > 0 else { throw .encodeFailed("empty thumbnail box") }
        guard let format = format ?? MediaSniffer.format(of: MemoryByteSource(bytes)) else { throw .unsupportedFormat("this file type") }
        switch format {
        case .jpeg:
            let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .jpeg)
            let orientation = exifOrientation(bytes, block: layout.exifBlocks.first)
            let size = try JPEGCodec.dimensions(of: bytes)
            let previews = EmbeddedPreviewFinder.inJPEG(bytes, layout: layout)
            if let preview = EmbeddedPreviewFinder.best(previews, box: box, imageWidth: size.width, imageHeight: size.height),
                let image = try? decode(preview, in: bytes, box: box)
            {
                return Rendered(
                    image: image.fitted(inBox: box).oriented(orientation), origin: preview.source == .mpf ? .mpfPreview : .exifThumbnail)
            }
            let target = PixelImage.fittedSize(width: size.width, height: size.height, box: box)
            let image = try JPEGCodec.decode(bytes, atLeast: target, fast: true)
            return Rendered(image: image.fitted(inBox: box).oriented(orientation), origin: .decoded)
        case .heic, .heif, .avif:
            let decoded = try HEIFCodec.decode(bytes, thumbnailBox: box)
            return Rendered(image: decoded.image.fitted(inBox: box), origin: decoded.fromThumbnail ? .heifThumbnail : .decoded)
        case .png:
            return Rendered(image: try PNGCodec.decode(bytes).fitted(inBox: box), origin: .decoded)
        case .webp:
            return Rendered(image: try WebPCodec.decode(bytes).fitted(inBox: box), origin: .decoded)
        case .jxl:
            return Rendered(image: try JXLCodec.decode(bytes).fitted(inBox: box), origin: .decoded)
        case .tiff, .dng, .raw:
            let previews = EmbeddedPreviewFinder.inTIFF(bytes, format: format)
            let main = ContainerWalker.layout(of: MemoryByteSource(bytes), format: format)
            let orientation = exifOrientation(bytes, block: ByteRange(offset: 0, length: Int64(bytes.count)))
            let fitting = EmbeddedPreviewFinder.best(previews, box: box, imageWidth: main.pixelWidth, imageHeight: main.pixelHeight)
            if let preview = fitting, let image = try? decode(preview, in: bytes, box: box) {
                return Rendered(
                    image: image.fitted(inBox: box).oriented(orientation), origin: preview.source == .tiffImage ? .decoded : .tiffPreview)
            }
            // No preview large enough: libtiff decodes the first image in any compression it
            // knows (for a raw file that is its own first preview, never the sensor data).
            do throws(ImagingError) {
                let image = try TIFFCodec.decode(bytes)
                return Rendered(image: image.fitted(inBox: box).oriented(orientation), origin: format == .tiff ? .decoded : .tiffPreview)
            } catch {
                // A smaller preview is better than none.
                guard let preview = previews.max(by: { $0.width * $0.height < $1.width * $1.height }),
                    let image = try? decode(preview, in: bytes, box: box)
                else { throw error }
                return Rendered(
                    image: image.fitted(inBox: box).oriented(orientation), origin: preview.source == .tiffImage ? .decoded : .tiffPreview)
            }
        case .bigTIFF:
            let image = try TIFFCodec.decode(bytes)
            let orientation = exifOrientation(bytes, block: ByteRange(offset: 0, length: Int64(bytes.count)))
            return Rendered(image: image.fitted(inBox: box).oriented(orientation), origin: .decoded)
        case .gif:
            return Rendered(image: try GIFCodec.decode(bytes).fitted(inBox: box), origin: .decoded)
        case .bmp:
            return Rendered(image: try BMPCodec.decode(bytes, box: box).fitted(inBox: box), origin: .decoded)
        case .mp4, .mov, .threeGP, .avi, .mpegTS:
            let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: format)
            let image = VideoPlaceholder.image(
                box: box, videoWidth: layout.movie?.width, videoHeight: layout.movie?.height,
                seconds: MovieDuration.seconds(of: MemoryByteSource(bytes)))
            return Rendered(image: image, origin: .videoPlaceholder)
        }
    }

    /// The EXIF orientation (IFD0 tag 0x0112) of a TIFF block, 1 when absent or invalid.
    static func exifOrientation(_ bytes: [UInt8], block: ByteRange?) -> Int {
        guard let block else { return 1 }
        let tiff = TIFFWalker().walk(MemoryByteSource(bytes), block: block)
        guard let order = tiff.byteOrder, let ifd0 = tiff.directory(.main(0)),
            let value = TIFFValues(MemoryByteSource(bytes), order: order).integer(ifd0.entry(0x0112)), (1...8).contains(value)
        else { return 1 }
        return value
    }

    private static func decode(_ preview: EmbeddedPreview, in bytes: [UInt8], box: Int) throws(ImagingError) -> PixelImage {
        switch preview.encoding {
        case .jpeg:
            let stream = Array(bytes[Int(preview.range.offset)..<Int(preview.range.end)])
            let target = PixelImage.fittedSize(width: preview.width, height: preview.height, box: box)
            return try JPEGCodec.decode(stream, atLeast: target, fast: true)
        case .rgbStrips(let strips):
            let count = preview.width * preview.height * 3
            var pixels: [UInt8] = []
            pixels.reserveCapacity(count)
            for strip in strips where pixels.count < count {
                let take = min(Int(strip.length), count - pixels.count)
                pixels += bytes[Int(strip.offset)..<(Int(strip.offset) + take)]
            }
            guard pixels.count == count else { throw .malformed("TIFF: strips shorter than the image") }
            return PixelImage(width: preview.width, height: preview.height, channels: 3, pixels: pixels)
        }
    }
}
