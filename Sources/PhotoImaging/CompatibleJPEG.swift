import MediaFormats
import SystemKit

/// The compatible representation of a HEIC, HEIF, AVIF or JPEG XL photo: a baseline JPEG of the
/// upright picture, for apps that cannot read HEIF. The source's EXIF block is carried
/// over (capture date, camera, lens and the rest) with three changes: the location policy
/// is applied by the same redaction plans photofs serves originals with, the orientation
/// is set to 1 because the pixels are already turned upright (as libheif's own tools do),
/// and the EXIF thumbnail (IFD1) is unlinked because it would show the old orientation.
/// When the EXIF block is too large for one JPEG segment or its location cannot be
/// removed with certainty, the JPEG carries no metadata at all.
public enum CompatibleJPEG {
    /// The default quality, as the classic iOS picker's `jpegData(compressionQuality: 0.8)`.
    public static let defaultQuality = 80
    /// The formats it converts (what PhotoCore's `Representation.convertedFormats` serves as
    /// JPEG; kept here too so that the fuzzer builds this file without PhotoCore).
    public static let sourceFormats: Set<MediaFormat> = [.heic, .heif, .avif, .jxl]

    /// The JPEG of the file at `path`.
    public static func transcode(path: [UInt8], quality: Int, location: LocationPolicy) throws(ImagingError) -> [UInt8] {
        let file = try FileBytes(path: path)
        return try transcode(bytes: file.all(limit: Thumbnailer.maxImageFileSize), quality: quality, location: location)
    }

    /// The JPEG of HEIF-family `bytes`.
    public static func transcode(bytes: [UInt8], quality: Int, location: LocationPolicy) throws(ImagingError) -> [UInt8] {
        guard let format = MediaSniffer.format(of: MemoryByteSource(bytes)), sourceFormats.contains(format) else {
            throw .unsupportedFormat("a compatible JPEG of anything but HEIC, HEIF, AVIF or JPEG XL")
        }
        let jpeg = try pictureJPEG(bytes, format: format, quality: quality)
        let exif = format == .jxl ? JXLCodec.exif(bytes) : HEIFCodec.exif(bytes)
        guard let exif, let withExif = inserting(exif: exif, into: jpeg) else { return jpeg }
        return redacted(withExif, policy: location) ?? jpeg
    }

    /// The JPEG of the picture alone. A HEIC picture goes to the encoder in the HEVC
    /// decoder's YCbCr when its colour allows; another opaque HEIF picture straight from
    /// libheif's buffer; alpha is composed over white in a copy first.
    private static func pictureJPEG(_ bytes: [UInt8], format: MediaFormat, quality: Int) throws(ImagingError) -> [UInt8] {
        if format == .jxl { return try JPEGCodec.encode(try JXLCodec.decode(bytes), quality: quality) }
        let threads = CurrentProcess.onlineProcessorCount
        if format == .heic, let picture = try HEIFCodec.primaryYCbCr(bytes, threads: threads) {
            return try JPEGCodec.encode(picture, quality: quality)
        }
        if let jpeg = try HEIFCodec.withRGB(
            bytes, threads: threads, { rgb throws(ImagingError) in try JPEGCodec.encode(rgb, quality: quality) })
        {
            return jpeg
        }
        return try JPEGCodec.encode(try HEIFCodec.decode(bytes, threads: threads).image, quality: quality)
    }

    /// `jpeg` with an APP1 EXIF segment holding `tiff` (orientation 1, IFD1 unlinked) right
    /// after SOI; nil when the block does not fit in one segment or is not TIFF.
    static func inserting(exif tiff: [UInt8], into jpeg: [UInt8]) -> [UInt8]? {
        let header = Array("Exif\0\0".utf8)
        let length = 2 + header.count + tiff.count
        guard length <= 0xFFFF, jpeg.count > 2 else { return nil }
        var block = tiff
        let layout = TIFFWalker().walk(MemoryByteSource(block), block: ByteRange(offset: 0, length: Int64(block.count)))
        guard let order = layout.byteOrder, let ifd0 = layout.directories.first(where: { $0.kind == .main(0) }) else { return nil }
        if let orientation = ifd0.entry(0x0112), orientation.type == 3, orientation.count == 1 {
            let at = Int(orientation.entryOffset) + 8
            block[at..<(at + 2)] = order == .bigEndian ? [0, 1] : [1, 0]
        }
        if ifd0.nextIFD != nil {
            let at = Int(ifd0.offset) + 2 + 12 * ifd0.entries.count
            block[at..<(at + 4)] = [0, 0, 0, 0]
        }
        let segment = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + header + block
        return Array(jpeg[0..<2]) + segment + jpeg[2...]
    }

    /// `jpeg` with its location handled under `policy`, or nil when it cannot be.
    static func redacted(_ jpeg: [UInt8], policy: LocationPolicy) -> [UInt8]? {
        guard policy != .keep else { return jpeg }
        let source = MemoryByteSource(jpeg)
        let layout = ContainerWalker.layout(of: source, format: .jpeg)
        guard case .patches(let patches) = RedactionPlanner.plans(layout: layout, source: source).plan(for: policy) else { return nil }
        var out = jpeg
        PatchOverlay.apply(patches, to: &out, at: 0)
        return out
    }
}
