import CGIF

// GIF through giflib's record reader: the first image of the file, drawn on the logical
// screen at its offset, transparent where its graphic control block says so. Later frames
// of an animation are never decoded (a thumbnail shows the first, as file managers do).

/// Decodes the first frame of a GIF; the only user of `CGIF`.
public enum GIFCodec {
    /// Decodes the first frame of `bytes` to RGBA on the logical screen.
    public static func decode(_ bytes: [UInt8]) throws(ImagingError) -> PixelImage {
        let reader = MemoryReader(bytes)
        let context = Unmanaged.passUnretained(reader).toOpaque()
        var status: Int32 = 0
        guard
            let gif = DGifOpen(
                context,
                { file, buffer, wanted in
                    guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
                    return Int32(Unmanaged<MemoryReader>.fromOpaque(user).takeUnretainedValue().read(into: buffer, count: Int(wanted)))
                }, &status)
        else { throw .malformed("GIF: " + errorText(status)) }
        defer {
            var ignored: Int32 = 0
            DGifCloseFile(gif, &ignored)
        }
        return try withExtendedLifetime(reader) { () throws(ImagingError) -> PixelImage in try firstFrame(gif) }
    }

    private static func firstFrame(_ gif: UnsafeMutablePointer<GifFileType>) throws(ImagingError) -> PixelImage {
        var transparent: Int? = nil
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { throw .malformed("GIF: " + errorText(gif.pointee.Error)) }
            switch record {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>? = nil
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw .malformed("GIF: " + errorText(gif.pointee.Error)) }
                // A graphic control block: length 4, flags, delay (2), transparent index.
                if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4, block[1] & 1 == 1 { transparent = Int(block[4]) }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw .malformed("GIF: " + errorText(gif.pointee.Error)) }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw .malformed("GIF: " + errorText(gif.pointee.Error)) }
                return try image(gif, transparent: transparent)
            case TERMINATE_RECORD_TYPE:
                throw .malformed("GIF: no image in the file")
            default:
                continue
            }
        }
    }

    /// Reads the image whose descriptor was just read and draws it on the logical screen.
    private static func image(_ gif: UnsafeMutablePointer<GifFileType>, transparent: Int?) throws(ImagingError) -> PixelImage {
        let frame = gif.pointee.Image
        let left = Int(frame.Left)
        let top = Int(frame.Top)
        let width = Int(frame.Width)
        let height = Int(frame.Height)
        // Some writers leave the logical screen 0×0 or smaller than the frame.
        let screenWidth = max(Int(gif.pointee.SWidth), left + width)
        let screenHeight = max(Int(gif.pointee.SHeight), top + height)
        try DecodeLimits.check(width: width, height: height)
        try DecodeLimits.check(width: screenWidth, height: screenHeight)
        guard let map = frame.ColorMap ?? gif.pointee.SColorMap, map.pointee.ColorCount > 0, let colors = map.pointee.Colors else {
            throw .malformed("GIF: no colour table")
        }
        let colorCount = Int(map.pointee.ColorCount)
        var rows = [[UInt8]](repeating: [], count: height)
        var line = [UInt8](repeating: 0, count: width)
        // Interlaced images arrive in four passes: every 8th row from 0, from 4, every 4th
        // from 2, every 2nd from 1.
        let passes: [(start: Int, step: Int)] = frame.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for pass in passes {
            for row in stride(from: pass.start, to: height, by: pass.step) {
                let status = line.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress, Int32(width)) }
                guard status == GIF_OK else { throw .malformed("GIF: " + errorText(gif.pointee.Error)) }
                rows[row] = line
            }
        }
        var pixels = [UInt8](repeating: 0, count: screenWidth * screenHeight * 4)
        for (y, row) in rows.enumerated() {
            for (x, index) in row.enumerated() where Int(index) != transparent && Int(index) < colorCount {
                let color = colors[Int(index)]
                let at = ((top + y) * screenWidth + left + x) * 4
                pixels[at] = color.Red
                pixels[at + 1] = color.Green
                pixels[at + 2] = color.Blue
                pixels[at + 3] = 255
            }
        }
        return PixelImage(width: screenWidth, height: screenHeight, channels: 4, pixels: pixels)
    }

    private static func errorText(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// Bytes handed to a C decoder's read callback, piece by piece.
final class MemoryReader {
    let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Copies up to `count` bytes into `buffer`; the number copied (0 at the end).
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let taken = max(0, min(count, bytes.count - position))
        bytes.withUnsafeBufferPointer { source in
            guard taken > 0, let base = source.baseAddress else { return }
            buffer.update(from: base + position, count: taken)
        }
        position += taken
        return taken
    }

    /// Moves to `offset` (clamped to the bytes); the new position.
    func seek(to offset: Int) -> Int {
        position = max(0, min(offset, bytes.count))
        return position
    }
}
