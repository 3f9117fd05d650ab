import CAV
import SystemKit

// A video's poster frame through libavformat and libavcodec: the first picture at or after
// the key frame before a tenth of the duration (a first frame is often black), turned as
// the stream's display matrix says. The container is read through callbacks on one open
// descriptor; a demuxer that asks for another file (playlists, movie references) is
// refused, and only demuxers of the video formats photofs catalogues are allowed.

/// The poster frame and duration of a video file.
enum VideoPoster {
    /// The demuxers tried (libavformat's names): MP4/QuickTime/3GP, AVI, Matroska/WebM,
    /// MPEG transport streams.
    static let demuxers = "mov,mp4,m4a,3gp,3g2,mj2,avi,matroska,webm,mpegts"
    /// Packets read before giving up on a picture.
    static let maxPackets = 4000

    /// A decoded poster frame.
    struct Poster {
        /// Upright, fitted into the requested box.
        var image: PixelImage
        /// The duration in seconds, when the container says.
        var seconds: Double?
    }

    /// The poster frame of the video at `path`, fitted into `box`.
    static func poster(path: [UInt8], box: Int) throws(ImagingError) -> Poster {
        let display = String(decoding: path, as: UTF8.self)
        let fd: FileDescriptor
        let status: FileStatus
        do throws(Errno) {
            fd = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw .io(path: display, errno: error)
        }
        defer { fd.close() }
        do throws(Errno) {
            status = try fd.status()
        } catch {
            throw .io(path: display, errno: error)
        }
        return try poster(of: fd, size: status.size, box: box)
    }

    /// The poster frame of the open video `fd` of `size` bytes (read with `pread`; the
    /// descriptor stays its owner's), fitted into `box`.
    static func poster(of fd: FileDescriptor, size: Int64, box: Int) throws(ImagingError) -> Poster {
        try poster(reader: DescriptorReader(fd: fd, size: size), box: box)
    }

    private static func poster(reader: DescriptorReader, box: Int) throws(ImagingError) -> Poster {
        av_log_set_level(AV_LOG_QUIET)
        let bufferSize = 64 << 10
        guard let buffer = av_malloc(bufferSize) else { throw .malformed("out of memory") }
        let opaque = Unmanaged.passUnretained(reader).toOpaque()
        guard
            var io = avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0, opaque,
                { opaque, buffer, count in
                    guard let opaque, let buffer else { return photofs_av_eof() }
                    let read = Unmanaged<DescriptorReader>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: Int(count))
                    return read > 0 ? Int32(read) : photofs_av_eof()
                }, nil,
                { opaque, offset, whence in
                    guard let opaque else { return -1 }
                    return Unmanaged<DescriptorReader>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence: whence)
                })
        else {
            av_free(buffer)
            throw .malformed("out of memory")
        }
        defer {
            av_freep(&io.pointee.buffer)
            var optional: UnsafeMutablePointer<AVIOContext>? = io
            avio_context_free(&optional)
        }
        var format = avformat_alloc_context()
        guard let allocated = format else { throw .malformed("out of memory") }
        allocated.pointee.pb = io
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        allocated.pointee.format_whitelist = av_strdup(demuxers)
        photofs_av_forbid_other_files(allocated)
        // On failure avformat_open_input frees the context and sets it to nil.
        guard avformat_open_input(&format, nil, nil, nil) == 0, let format else {
            throw .unsupportedFormat("this video container")
        }
        defer {
            var closing: UnsafeMutablePointer<AVFormatContext>? = format
            avformat_close_input(&closing)
        }
        return try withExtendedLifetime(reader) { () throws(ImagingError) -> Poster in try decodePoster(format, box: box) }
    }

    private static func decodePoster(_ format: UnsafeMutablePointer<AVFormatContext>, box: Int) throws(ImagingError) -> Poster {
        guard avformat_find_stream_info(format, nil) >= 0 else { throw .malformed("video: no stream information") }
        var codec: UnsafePointer<AVCodec>? = nil
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0)
        guard index >= 0, let codec, let stream = format.pointee.streams[Int(index)] else {
            throw .unsupportedFormat("a video without a video stream libavcodec decodes")
        }
        let seconds = duration(format, stream)
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        guard let context, avcodec_parameters_to_context(context, stream.pointee.codecpar) >= 0 else {
            throw .malformed("video: bad codec parameters")
        }
        context.pointee.thread_count = 1
        guard avcodec_open2(context, codec, nil) == 0 else { throw .unsupportedFormat("this video codec") }
        if let seconds, seconds > 2 {
            // Key frame at or before a tenth of the way in (at most 10 s).
            let target = Int64(min(seconds / 10, 10) * Double(AV_TIME_BASE))
            if av_seek_frame(format, -1, target, AVSEEK_FLAG_BACKWARD) >= 0 { avcodec_flush_buffers(context) }
        }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        guard let packet, let frame else { throw .malformed("out of memory") }
        var sent = 0
        var flushed = false
        while true {
            let received = avcodec_receive_frame(context, frame)
            if received == 0 { break }
            guard received == photofs_av_again(), !flushed else { throw .malformed("video: no frame decodes") }
            // The decoder wants more input: the next packet of this stream, or the end.
            var fed = false
            while !fed, sent < maxPackets {
                sent += 1
                if av_read_frame(format, packet) < 0 {
                    avcodec_send_packet(context, nil)
                    flushed = true
                    break
                }
                defer { av_packet_unref(packet) }
                if packet.pointee.stream_index == index {
                    let status = avcodec_send_packet(context, packet)
                    fed = status == 0 || status == photofs_av_again()
                }
            }
            guard fed || flushed else { throw .malformed("video: no frame in the first \(maxPackets) packets") }
        }
        if frame.pointee.sample_aspect_ratio.num == 0 { frame.pointee.sample_aspect_ratio = stream.pointee.sample_aspect_ratio }
        let image = try AVFrameScaling.image(of: frame, box: box)
        return Poster(image: image.oriented(orientation(rotation: photofs_av_rotation(stream))), seconds: seconds)
    }

    /// Seconds from the container, else from the stream.
    private static func duration(_ format: UnsafeMutablePointer<AVFormatContext>, _ stream: UnsafeMutablePointer<AVStream>) -> Double? {
        if format.pointee.duration != photofs_av_nopts(), format.pointee.duration > 0 {
            return Double(format.pointee.duration) / Double(AV_TIME_BASE)
        }
        let base = stream.pointee.time_base
        guard stream.pointee.duration != photofs_av_nopts(), stream.pointee.duration > 0, base.den > 0 else { return nil }
        return Double(stream.pointee.duration) * Double(base.num) / Double(base.den)
    }

    /// The EXIF orientation that turns a frame upright, from the display matrix's
    /// counter-clockwise rotation.
    static func orientation(rotation: Double) -> Int {
        let clockwise = ((Int((-rotation).rounded()) % 360) + 360) % 360
        switch clockwise {
        case 45..<135: return 6
        case 135..<225: return 3
        case 225..<315: return 8
        default: return 1
        }
    }
}

/// A file read through `pread` on a descriptor, for a C library's read and seek callbacks.
final class DescriptorReader {
    let fd: FileDescriptor
    let size: Int64
    private var position: Int64 = 0

    init(fd: FileDescriptor, size: Int64) {
        self.fd = fd
        self.size = size
    }

    /// Up to `count` bytes at the current position; the number read (0 at the end, -1 on error).
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        guard let read = try? fd.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count), at: position) else { return -1 }
        position += Int64(read)
        return read
    }

    /// libavformat's seek: `whence` SEEK_SET, SEEK_CUR, SEEK_END or AVSEEK_SIZE (the size).
    func seek(_ offset: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return size }
        let base: Int64
        switch whence & ~AVSEEK_FORCE {
        case photofs_av_seek_set(): base = 0
        case photofs_av_seek_cur(): base = position
        case photofs_av_seek_end(): base = size
        default: return -1
        }
        let target = base &+ offset
        guard target >= 0 else { return -1 }
        position = target
        return target
    }
}
