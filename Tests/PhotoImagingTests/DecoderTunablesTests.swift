import Foundation
import Glibc
import PhotoCore
import TestSupport
import Testing

@testable import PhotoImaging

/// A decoder process started with allocator tunables (as `photofs transcode` starts its
/// own) has them in its environment, beside everything it inherited, and still answers.
@Suite struct DecoderTunablesTests {
    @Test func tunablesReachTheDecoderProcessAndItStillTranscodes() throws {
        guard Fixture.photofsBuilt, let encoder = Fixture.tool("heif-enc") else {
            try Skip.because("a prerequisite is missing (the line above says which)")
        }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        try Fixture.heic(encoder, of: Fixture.quadrants(width: 320, height: 240), in: dir, named: "q")
        // A confined decoder process hides its environment (it is not dumpable): a plain
        // program started the same way shows what it was given.
        let sleeper = try DecoderProcess(executable: "/bin/sleep", arguments: ["60"], tunables: DecoderPool.reuseLargeBlocks)
        defer { sleeper.stop() }
        // /proc files say size 0: read to the end rather than by size. Until the child has
        // become /bin/sleep (a moment after the spawn returned, on a busy machine) its
        // environment reads empty: wait for the program first.
        for _ in 0..<250 {
            let command = FileHandle(forReadingAtPath: "/proc/\(sleeper.pid)/cmdline")?.readDataToEndOfFile() ?? Data()
            if command.starts(with: Array("/bin/sleep".utf8)) { break }
            usleep(20_000)
        }
        let environ = try #require(FileHandle(forReadingAtPath: "/proc/\(sleeper.pid)/environ")?.readDataToEndOfFile())
        let entries = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let tunables = entries.filter { $0.hasPrefix("GLIBC_TUNABLES=") }
        // glibc 2.36 rewrites the variable in place once it has read it, keeping only the
        // first setting visible in /proc; `ld.so --list-tunables` shows both applied.
        let given = try #require(DecoderProcess.environment(adding: DecoderPool.reuseLargeBlocks).first { $0.hasPrefix("GLIBC_TUNABLES=") })
        #expect(tunables.count == 1 && tunables[0].count > "GLIBC_TUNABLES=".count && given.hasPrefix(tunables[0]), "\(tunables)")
        #expect(entries.contains { $0.hasPrefix("PATH=") } == (ProcessInfo.processInfo.environment["PATH"] != nil))
        let process = try DecoderProcess(
            executable: Fixture.photofs, arguments: ["thumbnail-worker"], tunables: DecoderPool.reuseLargeBlocks)
        defer { process.finish() }
        let answer = try process.run(.compatibleJPEG(path: Array((dir + "/q.heic").utf8), quality: 80, location: .strip), timeLimit: 60)
        guard case .image(let jpeg, _) = answer else {
            Issue.record("the transcode gave \(answer)")
            return
        }
        #expect(Fixture.corners(try JPEGCodec.decode(jpeg)) == "RGBW")
    }

    @Test func tunablesAreAddedToAnInheritedSetting() {
        let plain = DecoderProcess.environment(adding: nil)
        let added = DecoderProcess.environment(adding: "glibc.malloc.mmap_max=0")
        let inherited = plain.first { $0.hasPrefix("GLIBC_TUNABLES=") }
        let expected = inherited.map { $0 + ":glibc.malloc.mmap_max=0" } ?? "GLIBC_TUNABLES=glibc.malloc.mmap_max=0"
        #expect(added.filter { $0.hasPrefix("GLIBC_TUNABLES=") } == [expected])
        #expect(Set(added.filter { !$0.hasPrefix("GLIBC_TUNABLES=") }) == Set(plain.filter { !$0.hasPrefix("GLIBC_TUNABLES=") }))
    }
}
