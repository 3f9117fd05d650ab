import Dispatch
import PhotoCore
import Synchronization

/// The files of an index run analysed in path order, in chunks, by background workers and
/// by the writer itself while it has nothing to write.
///
/// The writer (the thread that runs the index) writes results in path order as soon as a
/// prefix of the files is analysed. With one worker fewer than there are cores, and the
/// writer analysing whenever the results it needs next are not in, as many threads run as
/// there are cores: the writer, which is the longer task for small photos, is never
/// crowded out by analysis it is waiting for, and starts writing after the first chunk,
/// not after a whole batch. Workers stay at most `window` files ahead of what the writer
/// has taken (`release(upTo:)`), so the results held stay bounded however large the run.
final class AnalysisQueue: Sendable {
    typealias Outcome = Result<AssetAnalysis, AnalysisError>

    /// Files analysed in one go before their results are stored and progress reported: a
    /// small photo takes tens of microseconds, so taking locks per file would cost the
    /// workers time and make them wait on each other.
    static let chunk = 8

    private struct State {
        /// The first chunk no one has taken yet.
        var nextChunk = 0
        /// Which chunks are analysed.
        var finished: [Bool]
        /// The number of files from the start whose results are all in.
        var ready = 0
        /// Results by file, until the writer takes them.
        var outcomes: [Outcome?]
        /// Files the writer has released: workers may run up to `window` files past them.
        var released = 0
        /// Workers that stopped at the window, to be started again when it moves.
        var parked = 0
        /// Whether the writer waits for `ready` to move.
        var writerWaits = false
    }

    private let files: [WalkedFile]
    private let paths: [[UInt8]]
    private let folderHasXMP: [Bool]
    private let analyzer: any AssetAnalyzing
    private let done: @Sendable (Int, Int64) -> Void
    private let window: Int
    private let chunks: Int
    private let state: Mutex<State>
    private let readyMoved = DispatchSemaphore(value: 0)

    /// A queue over `files` (in path order) whose absolute paths are `paths`; `done` is
    /// called after each chunk with its file count and bytes.
    init(
        files: [WalkedFile], paths: [[UInt8]], folderHasXMP: [Bool], analyzer: any AssetAnalyzing, window: Int,
        done: @escaping @Sendable (Int, Int64) -> Void
    ) {
        self.files = files
        self.paths = paths
        self.folderHasXMP = folderHasXMP
        self.analyzer = analyzer
        self.done = done
        self.window = max(window, Self.chunk)
        chunks = (files.count + Self.chunk - 1) / Self.chunk
        state = Mutex(State(finished: Array(repeating: false, count: chunks), outcomes: Array(repeating: nil, count: files.count)))
    }

    /// Starts `count` background workers.
    func start(workers count: Int) {
        for _ in 0..<count { startWorker() }
    }

    private func startWorker() {
        DispatchQueue.global().async { [self] in
            while let chunk = take(parkingAtWindow: true) { analyse(chunk) }
        }
    }

    /// Takes the next chunk; nil when none is left, or (for a worker) when it is beyond
    /// the window, in which case the worker is counted as parked.
    private func take(parkingAtWindow: Bool) -> Int? {
        state.withLock { s in
            guard s.nextChunk < chunks else { return nil }
            if parkingAtWindow, s.nextChunk * Self.chunk >= s.released + window {
                s.parked += 1
                return nil
            }
            defer { s.nextChunk += 1 }
            return s.nextChunk
        }
    }

    private func analyse(_ chunk: Int) {
        let range = chunk * Self.chunk..<min(files.count, (chunk + 1) * Self.chunk)
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(range.count)
        var bytes: Int64 = 0
        for index in range {
            do throws(AnalysisError) {
                outcomes.append(.success(try analyzer.analyze(absolutePath: paths[index], folderHasXMP: folderHasXMP[index])))
            } catch {
                outcomes.append(.failure(error))
            }
            bytes &+= files[index].stat.size
        }
        let wake = state.withLock { s in
            for (index, outcome) in zip(range, outcomes) { s.outcomes[index] = outcome }
            s.finished[chunk] = true
            var next = s.ready / Self.chunk
            while next < chunks, s.finished[next] { next += 1 }
            s.ready = min(files.count, next * Self.chunk)
            defer { s.writerWaits = false }
            return s.writerWaits
        }
        if wake { readyMoved.signal() }
        done(range.count, bytes)
    }

    /// Blocks until more than `count` files from the start are analysed (or all are), and
    /// returns how many are; analyses chunks on the calling thread meanwhile.
    func waitForMore(than count: Int) -> Int {
        waitUntil { $0 > count || $0 == files.count }
    }

    /// Blocks until the first `count` files are analysed; analyses chunks on the calling
    /// thread meanwhile.
    func wait(for count: Int) {
        _ = waitUntil { $0 >= min(count, files.count) }
    }

    private func waitUntil(_ enough: (Int) -> Bool) -> Int {
        while true {
            let ready = state.withLock { $0.ready }
            if enough(ready) { return ready }
            if let chunk = take(parkingAtWindow: false) {
                analyse(chunk)
                continue
            }
            // Every chunk is taken: wait for a worker to finish one.
            let waiting = state.withLock { s in
                guard !enough(s.ready) else { return false }
                s.writerWaits = true
                return true
            }
            if waiting { readyMoved.wait() }
        }
    }

    /// The result for file `index` (once only: the queue lets go of it).
    func take(_ index: Int) -> Outcome {
        state.withLock { s in
            defer { s.outcomes[index] = nil }
            return s.outcomes[index] ?? .failure(.unreadable(errno: .ioError))
        }
    }

    /// Says that the writer is done with the files before `count`: parked workers go on.
    func release(upTo count: Int) {
        let restart = state.withLock { s in
            s.released = max(s.released, count)
            defer { s.parked = 0 }
            return s.parked
        }
        for _ in 0..<restart { startWorker() }
    }
}
