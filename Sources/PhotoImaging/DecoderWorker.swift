import SystemKit

/// The decoder process's loop: reads requests from a socket on `fd`, answers each on the
/// same socket, and returns when the other side closes it (also when that process dies). It runs as its own process
/// (`photofs thumbnail-worker`), so a decoder library that crashes or hangs on a hostile
/// file takes down only this process; the pool notices and starts another.
public enum DecoderWorker {
    /// Serves until the socket closes; returns the process exit status. First caps its
    /// memory (`DecodeLimits.decoderProcessBytes`) and confines the process
    /// (`DecoderSandbox`); a process that cannot be capped or confined decodes nothing (3).
    public static func serve(fd: Int32 = 0) -> Int32 {
        do {
            try CurrentProcess.limitData(to: DecodeLimits.decoderProcessBytes)
            try DecoderSandbox.confine()
        } catch {
            return 3
        }
        while true {
            let frame: [UInt8]
            do throws(FrameIO.ReadFailure) {
                frame = try FrameIO.read(from: fd, deadline: nil)
            } catch {
                return error == .closed ? 0 : 2
            }
            guard let request = FrameCodec.decodeRequest(frame) else { return 2 }
            let response = handle(request)
            guard FrameIO.write(FrameCodec.encode(response), to: fd) else { return 0 }
        }
    }

    /// One request, answered in this process (the pool calls this through the socket; tests
    /// and the fuzzer call it directly).
    public static func handle(_ request: DecoderRequest) -> DecoderResponse {
        do throws(ImagingError) {
            switch request {
            case .thumbnail(let path, let box, let text):
                let result = try Thumbnailer.png(path: path, box: box, text: text.map { ($0.key, $0.value) })
                return .image(bytes: result.png, origin: result.origin)
            case .thumbnailBelow(let root, let path, let stamp, let box, let text):
                let file = try FileBytes(below: root, path: path, stamp: stamp)
                let result = try Thumbnailer.png(file: file, box: box, text: text.map { ($0.key, $0.value) })
                return .image(bytes: result.png, origin: result.origin)
            case .compatibleJPEG(let path, let quality, let location):
                let jpeg = try CompatibleJPEG.transcode(path: path, quality: quality, location: location)
                return .image(bytes: jpeg, origin: .decoded)
            case .compatibleJPEGData(let bytes, let quality, let location):
                let jpeg = try CompatibleJPEG.transcode(bytes: bytes, quality: quality, location: location)
                return .image(bytes: jpeg, origin: .decoded)
            }
        } catch {
            return .failed(error)
        }
    }
}
