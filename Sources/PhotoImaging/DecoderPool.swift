import Dispatch
import Synchronization

/// Decoder processes shared by the threads that need decoded pixels: at most `size` run at
/// once, each request gets one to itself, a process that crashed or overran its time limit
/// is replaced by a fresh one on the next request. The daemon, `photofs thumbnails` and
/// the picker use it so that no decoder library ever runs inside their own process.
public final class DecoderPool: Sendable {
    /// How to start a decoder process: the photofs executable and its hidden subcommand.
    public let executable: String
    public let arguments: [String]
    public let size: Int
    /// The longest one request may take before its process is killed.
    public let timeLimit: Double
    /// glibc allocator settings for the decoder processes (`GLIBC_TUNABLES` syntax), if any.
    public let tunables: String?

    /// Allocator settings for processes that decode many full-size pictures in a row (a
    /// transcode): glibc gives every block over 32 MiB (a 12 MP picture is 36 MB of RGB) its
    /// own mapping and unmaps it on free, so each picture's buffers are faulted in and
    /// zeroed page by page again, about a tenth of a 12 MP transcode's CPU time. Without
    /// mappings and without trimming, a process reuses the memory of the picture before.
    /// Its footprint then stays at its largest picture's, which the processes of a
    /// transcode run can afford (the daemon's thumbnail workers keep the defaults).
    public static let reuseLargeBlocks = "glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=17179869184"

    private let slots: DispatchSemaphore
    private let idle = Mutex<[ProcessBox]>([])

    public init(executable: String, arguments: [String] = ["thumbnail-worker"], size: Int, timeLimit: Double = 30, tunables: String? = nil)
    {
        self.executable = executable
        self.arguments = arguments
        self.tunables = tunables
        self.size = max(1, size)
        self.timeLimit = timeLimit
        self.slots = DispatchSemaphore(value: max(1, size))
    }

    deinit { shutdown() }

    /// Ends the idle decoder processes and waits for them (a later request starts new ones).
    public func shutdown() {
        let boxes = idle.withLock { boxes in
            defer { boxes.removeAll() }
            return boxes
        }
        boxes.forEach { $0.process.finish() }
    }

    /// Runs one request in a decoder process and returns its answer; a crash or timeout of
    /// the process is an error for this request only.
    public func run(_ request: DecoderRequest) throws(ImagingError) -> DecoderResponse {
        slots.wait()
        defer { slots.signal() }
        if let reused = idle.withLock({ $0.popLast() }) {
            if reused.process.isIdleAndWaiting { return try run(request, in: reused) }
            // It ended while idle (killed from outside): a fresh one takes the request.
            reused.process.stop()
        }
        return try run(
            request, in: ProcessBox(process: try DecoderProcess(executable: executable, arguments: arguments, tunables: tunables)))
    }

    private func run(_ request: DecoderRequest, in box: ProcessBox) throws(ImagingError) -> DecoderResponse {
        let response = try box.process.run(request, timeLimit: timeLimit)
        if box.process.isAlive { idle.withLock { $0.append(box) } }
        return response
    }

    /// The image bytes of a request, or its error.
    public func image(_ request: DecoderRequest) throws(ImagingError) -> (bytes: [UInt8], origin: ThumbnailOrigin) {
        switch try run(request) {
        case .image(let bytes, let origin): return (bytes, origin)
        case .failed(let error): throw error
        }
    }
}

/// A decoder process moved between threads; only one thread uses it at a time (the pool's
/// idle list hands it out under its lock).
private final class ProcessBox: @unchecked Sendable {
    let process: DecoderProcess

    init(process: DecoderProcess) { self.process = process }
}
