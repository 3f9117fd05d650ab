import CAV

// BMP (Windows and OS/2 bitmaps: 1, 4, 8, 16, 24 and 32 bits, RLE4 and RLE8) through
// libavcodec's BMP decoder, which takes the whole file as one packet.

/// Decodes BMP through `CAV`.
enum BMPCodec {
    /// The picture of `bytes`, fitted into `box`.
    static func decode(_ bytes: [UInt8], box: Int) throws(ImagingError) -> PixelImage {
        av_log_set_level(AV_LOG_QUIET)
        guard bytes.count < Int(Int32.max), let codec = avcodec_find_decoder(AV_CODEC_ID_BMP) else {
            throw .unsupportedFormat("BMP (libavcodec has no BMP decoder)")
        }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        guard let context, let packet, let frame, avcodec_open2(context, codec, nil) == 0,
            av_new_packet(packet, Int32(bytes.count)) == 0
        else { throw .malformed("cannot start the BMP decoder") }
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            packet.pointee.data.update(from: base, count: bytes.count)
        }
        guard avcodec_send_packet(context, packet) == 0, avcodec_receive_frame(context, frame) == 0 else {
            throw .malformed("BMP: the image data does not decode")
        }
        return try AVFrameScaling.image(of: frame, box: box)
    }
}
