import Foundation
import Glibc
import PhotoCore
import Synchronization
import SystemKit
import TestSupport
import Testing

@testable import PhotoImaging

/// Decoding in separate processes: a bad file is an error, a crashing or hanging decoder
/// costs only its own process, and the pool carries on with a fresh one.
// Serialized: one test kills this process's idle decoder processes, which must not be
// another test's.
@Suite(.serialized) struct DecoderProcessTests {
    @Test func workerAnswersAndSurvivesAMalformedFile() throws {
        guard Fixture.photofsBuilt else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        Fixture.write(try Fixture.jpeg(Fixture.quadrants(width: 300, height: 200)), to: dir + "/good.jpg")
        Fixture.write([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x03, 0x00] + [UInt8](repeating: 0xAB, count: 500), to: dir + "/bad.jpg")
        let process = try DecoderProcess(executable: Fixture.photofs, arguments: ["thumbnail-worker"])
        let bad = try process.run(.thumbnail(path: Array((dir + "/bad.jpg").utf8), box: 128, text: []), timeLimit: 20)
        guard case .failed(.malformed) = bad else {
            Issue.record("a malformed JPEG gave \(bad)")
            return
        }
        let good = try process.run(
            .thumbnail(path: Array((dir + "/good.jpg").utf8), box: 128, text: [TextPair(key: "Thumb::MTime", value: "9")]), timeLimit: 20)
        guard case .image(let png, .decoded) = good else {
            Issue.record("a good JPEG gave \(good)")
            return
        }
        #expect(PNGChunks.text(of: png) == ["Thumb::MTime": "9"])
        #expect(process.isAlive)
        let missing = try process.run(.thumbnail(path: Array("/nonexistent/x.jpg".utf8), box: 128, text: []), timeLimit: 20)
        #expect(missing == .failed(.io(path: "/nonexistent/x.jpg", errno: Errno(rawValue: ENOENT))))
        let pid = process.pid
        process.finish()
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    /// A decoder process runs under its seccomp filter with no_new_privs and a memory cap, and
    /// still decodes.
    @Test func theDecoderProcessIsConfined() throws {
        guard Fixture.photofsBuilt else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        Fixture.write(try Fixture.jpeg(Fixture.quadrants(width: 300, height: 200)), to: dir + "/good.jpg")
        let process = try DecoderProcess(executable: Fixture.photofs, arguments: ["thumbnail-worker"])
        defer { process.finish() }
        let good = try process.run(.thumbnail(path: Array((dir + "/good.jpg").utf8), box: 128, text: []), timeLimit: 20)
        guard case .image(let png, _) = good else {
            Issue.record("a good JPEG gave \(good)")
            return
        }
        #expect(try PNGCodec.decode(png).width == 128)
        // A photo large enough for the 1/8-scale decode (photofs's own scan reader) is decoded
        // by the same confined process: no JPEG path runs outside it.
        Fixture.write(try Fixture.jpeg(Fixture.quadrants(width: 2048, height: 1536)), to: dir + "/large.jpg")
        let large = try process.run(.thumbnail(path: Array((dir + "/large.jpg").utf8), box: 128, text: []), timeLimit: 20)
        guard case .image(let largePNG, .decoded) = large else {
            Issue.record("a large JPEG gave \(large)")
            return
        }
        #expect(try PNGCodec.decode(largePNG).width == 128)
        let status = String(decoding: Fixture.read("/proc/\(process.pid)/status"), as: UTF8.self)
        let fields = Dictionary(
            status.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: ":", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces)) : nil
            }, uniquingKeysWith: { first, _ in first })
        #expect(fields["NoNewPrivs"] == "1", "\(fields["NoNewPrivs"] ?? "no NoNewPrivs line")")
        #expect(fields["Seccomp"] == "2", "\(fields["Seccomp"] ?? "no Seccomp line")")
        // Its memory is capped, so a decoder library a hostile file misleads cannot take the machine's.
        let limits = String(decoding: Fixture.read("/proc/\(process.pid)/limits"), as: UTF8.self)
        let data = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max data size") }).map {
            $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2).map(String.init)
        }
        #expect(data == [String(DecodeLimits.decoderProcessBytes), String(DecodeLimits.decoderProcessBytes)], "\(limits)")
    }

    @Test func aCrashingDecoderFailsOnlyItsRequest() throws {
        let process = try DecoderProcess(executable: "/bin/sh", arguments: ["-c", "kill -SEGV $$"])
        #expect(throws: ImagingError.workerCrashed("killed by signal 11")) {
            try process.run(.thumbnail(path: Array("/x".utf8), box: 128, text: []), timeLimit: 20)
        }
        #expect(!process.isAlive)
    }

    @Test func aHangingDecoderIsKilledAtItsTimeLimit() throws {
        let process = try DecoderProcess(executable: "/bin/sleep", arguments: ["60"])
        let pid = process.pid
        let started = SystemClock.monotonicSeconds()
        #expect(throws: ImagingError.timedOut(seconds: 0.5)) {
            try process.run(.thumbnail(path: Array("/x".utf8), box: 128, text: []), timeLimit: 0.5)
        }
        #expect(SystemClock.monotonicSeconds() - started < 30)
        #expect(!process.isAlive)
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test func poolReplacesDeadProcessesAndRunsRequestsInParallel() throws {
        guard Fixture.photofsBuilt else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let broken = DecoderPool(executable: "/bin/sh", arguments: ["-c", "exit 3"], size: 1)
        for _ in 0..<2 {
            #expect(throws: ImagingError.workerCrashed("exited with status 3")) {
                try broken.run(.thumbnail(path: Array("/x".utf8), box: 128, text: []))
            }
        }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        for i in 0..<8 {
            Fixture.write(try Fixture.jpeg(Fixture.quadrants(width: 200 + i, height: 150)), to: dir + "/\(i).jpg")
        }
        let pool = DecoderPool(executable: Fixture.photofs, size: 2)
        // A process killed while idle is replaced without failing the next request.
        _ = try pool.image(.thumbnail(path: Array((dir + "/0.jpg").utf8), box: 64, text: []))
        let workers = try Fixture.run("/usr/bin/pgrep", ["-P", String(getpid()), "-f", "thumbnail-worker"]).output
        for pid in workers.split(separator: "\n").compactMap({ pid_t($0) }) {
            kill(pid, SIGKILL)
            // Dead once it is a zombie (the pool reaps it): its socket is closed by then.
            // Gone altogether when another test's pool (this process runs several) reaped it.
            for _ in 0..<500 {
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), !stat.contains(") Z ") else { break }
                usleep(10_000)
            }
        }
        #expect(!workers.isEmpty)
        #expect(try PNGCodec.decode(pool.image(.thumbnail(path: Array((dir + "/1.jpg").utf8), box: 64, text: [])).bytes).width == 64)
        let widths = Mutex<[Int: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            if let made = try? pool.image(.thumbnail(path: Array((dir + "/\(i).jpg").utf8), box: 1000, text: [])),
                let image = try? PNGCodec.decode(made.bytes)
            {
                widths.withLock { $0[i] = image.width }
            }
        }
        #expect(widths.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, 200 + $0) }))
    }

    @Test func serviceStoresFreshThumbnailsAndRemakesStaleOnes() throws {
        guard Fixture.photofsBuilt else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let photo = dir + "/photo one.jpg"
        Fixture.write(try Fixture.jpeg(Fixture.quadrants(width: 640, height: 480)), to: photo)
        let service = ThumbnailService(
            pool: DecoderPool(executable: Fixture.photofs, size: 1), cache: ThumbnailCache(root: dir + "/thumbnails"))
        let first = try service.thumbnail(forFile: Array(photo.utf8), size: .normal)
        #expect(first.origin == .decoded)
        #expect(first.path == service.cache.path(uri: "file://\(dir)/photo%20one.jpg", size: .normal))
        var info = stat()
        #expect(stat(first.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(dir + "/thumbnails/normal", &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(PNGChunks.text(of: Fixture.read(first.path))["Thumb::URI"] == "file://\(dir)/photo%20one.jpg")
        #expect(try service.thumbnail(forFile: Array(photo.utf8), size: .normal).origin == nil)
        // A new mtime makes the cached one stale.
        var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, photo, &times, 0) == 0)
        let again = try service.thumbnail(forFile: Array(photo.utf8), size: .normal)
        #expect(again.origin == .decoded && PNGChunks.text(of: again.png)["Thumb::MTime"] == "1600000000")
        #expect(throws: ImagingError.io(path: dir + "/gone.jpg", errno: Errno(rawValue: ENOENT))) {
            try service.thumbnail(forFile: Array((dir + "/gone.jpg").utf8), size: .normal)
        }
    }
}
