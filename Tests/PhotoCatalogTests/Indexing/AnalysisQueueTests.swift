import Glibc
import PhotoCore
import Synchronization
import SystemKit
import Testing

@testable import PhotoCatalog

/// The index run's analysis queue: every file is analysed once, the writer takes results in
/// path order as soon as a prefix is in (analysing itself while it waits), and the workers
/// never run further ahead of the writer than the window.
@Suite("analysis queue")
struct AnalysisQueueTests {
    /// Fails file n with errno n + 1 and notes the thread that analysed it.
    final class Recorder: AssetAnalyzing {
        let calls = Mutex<[(index: Int, thread: pthread_t)]>([])

        func analyze(absolutePath: [UInt8]) throws(AnalysisError) -> AssetAnalysis {
            let index = Int(String(decoding: absolutePath.dropFirst(), as: UTF8.self))!
            calls.withLock { $0.append((index, pthread_self())) }
            throw .unreadable(errno: Errno(rawValue: Int32(index + 1)))
        }
    }

    static func queue(_ count: Int, window: Int, analyzer: Recorder) -> AnalysisQueue {
        let files = (0..<count).map {
            WalkedFile(path: LibraryPath("\($0)"), stat: FileStat(size: 1, mtimeNanoseconds: 0, inode: UInt64($0), ctimeNanoseconds: 0))
        }
        return AnalysisQueue(
            files: files, paths: (0..<count).map { Array("/\($0)".utf8) }, folderHasXMP: Array(repeating: false, count: count),
            analyzer: analyzer, window: window, done: { _, _ in })
    }

    static func errno(_ outcome: AnalysisQueue.Outcome) -> Int32? {
        if case .failure(.unreadable(let errno)) = outcome { return errno.rawValue }
        return nil
    }

    @Test(arguments: [0, 1, 3])
    func everyFileIsAnalysedOnceAndTakenInOrder(workers: Int) {
        let recorder = Recorder()
        let queue = Self.queue(203, window: 32, analyzer: recorder)
        queue.start(workers: workers)
        var written = 0
        var taken: [Int32] = []
        while written < 203 {
            let ready = queue.waitForMore(than: written)
            #expect(ready > written)
            for index in written..<ready { taken.append(Self.errno(queue.take(index)) ?? -1) }
            written = ready
            queue.release(upTo: written)
        }
        #expect(taken == (1...203).map { Int32($0) })
        #expect(recorder.calls.withLock { $0.map(\.index).sorted() } == Array(0..<203))
    }

    @Test func workersStayWithinTheWindowOfWhatTheWriterReleased() {
        let recorder = Recorder()
        let queue = Self.queue(100, window: 16, analyzer: recorder)
        queue.start(workers: 2)
        // The writer releases nothing: the workers may start only the chunks below 16, and
        // the writer analyses the rest itself.
        queue.wait(for: 100)
        let me = pthread_self()
        let calls = recorder.calls.withLock { $0 }
        #expect(calls.map(\.index).sorted() == Array(0..<100))
        #expect(calls.filter { pthread_equal($0.thread, me) == 0 }.allSatisfy { $0.index < 16 })
        #expect(calls.contains { pthread_equal($0.thread, me) != 0 && $0.index >= 16 })
        #expect(Self.errno(queue.take(99)) == 100)
    }
}
