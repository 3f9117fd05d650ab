import CAV

/// Turns a frame libavcodec decoded (any pixel format) into RGB pixels fitted in a box, in
/// one libswscale pass, honouring the frame's sample aspect ratio.
enum AVFrameScaling {
    /// The frame's picture as RGB, its display shape fitted into `box` (never enlarged).
    static func image(of frame: UnsafeMutablePointer<AVFrame>, box: Int) throws(ImagingError) -> PixelImage {
        let width = Int(frame.pointee.width)
        let height = Int(frame.pointee.height)
        try DecodeLimits.check(width: width, height: height)
        let aspect = frame.pointee.sample_aspect_ratio
        let displayWidth = aspect.num > 0 && aspect.den > 0 ? max(1, width * Int(aspect.num) / Int(aspect.den)) : width
        let target = PixelImage.fittedSize(width: displayWidth, height: height, box: min(box, max(displayWidth, height)))
        guard
            let scaler = sws_getContext(
                Int32(width), Int32(height), AVPixelFormat(frame.pointee.format), Int32(target.width), Int32(target.height),
                AV_PIX_FMT_RGB24, SWS_AREA, nil, nil, nil)
        else { throw .malformed("no conversion from this pixel format") }
        defer { sws_freeContext(scaler) }
        var pixels = [UInt8](repeating: 0, count: target.width * target.height * 3)
        let rows = pixels.withUnsafeMutableBufferPointer { photofs_av_scale(scaler, frame, $0.baseAddress, Int32(target.width * 3)) }
        guard rows == Int32(target.height) else { throw .malformed("the frame does not convert") }
        return PixelImage(width: target.width, height: target.height, channels: 3, pixels: pixels)
    }
}
