import Foundation
@testable import MediaFormats
import TestSupport
import Testing


/// SHA-256 against the FIPS 180-4 / NIST example vectors, chunked feeding, and `sha256sum`.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func knownVectors(message: String, expected: String) {
        #expect(SHA256.hex(SHA256.hash(Array(message.utf8))) == expected)
    }

    @Test func oneMillionA() {
        let message = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(SHA256.hex(SHA256.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // The same message fed in uneven chunks that straddle block boundaries.
        var hasher = SHA256()
        var offset = 0
        var step = 1
        while offset < message.count {
            let end = min(message.count, offset + step)
            message[offset..<end].withUnsafeBytes { hasher.update($0) }
            offset = end
            step = step % 131 + 7
        }
        #expect(SHA256.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding boundaries (55, 56, 63, 64, 119, 120 bytes) against
    /// `sha256sum`, the independent implementation.
    @Test(arguments: [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 1000])
    func paddingBoundaries(length: Int) throws {
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let expected = try sha256sum(stdin: message)
        #expect(SHA256.hex(SHA256.hash(message)) == expected)
    }

    @Test func finalizeDoesNotConsume() {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        _ = hasher.finalize()
        hasher.update(Array("c".utf8))
        #expect(SHA256.hex(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// A few corpus files, hashed in 1 MiB-and-odd chunks, against `sha256sum`.
    @Test func corpusFilesMatchSha256sum() throws {
        guard let directory = Corpus.directory else {
            try Skip.because("SHA256Tests: corpus not found (set PHOTOFS_CORPUS); skipping the sha256sum comparison")
        }
        let names = try FileManager.default.subpathsOfDirectory(atPath: directory).filter { !$0.hasSuffix(".md") }.sorted()
        var checked = 0
        for name in names.prefix(40) {
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let data = FileManager.default.contents(atPath: path)
            else { continue }
            var hasher = SHA256()
            let bytes = [UInt8](data)
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + 1_048_576 + 13)
                bytes[offset..<end].withUnsafeBytes { hasher.update($0) }
                offset = end
            }
            let expected = try sha256sum(stdin: bytes)
            #expect(SHA256.hex(hasher.finalize()) == expected, "\(name)")
            checked += 1
        }
        #expect(checked > 10)
    }

    private func sha256sum(stdin bytes: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Write on another thread so a large input cannot deadlock against a full output pipe.
        let writer = input.fileHandleForWriting
        let data = Data(bytes)
        let thread = Thread {
            writer.write(data)
            try? writer.close()
        }
        thread.start()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: result.prefix(64), as: UTF8.self)
    }
}
