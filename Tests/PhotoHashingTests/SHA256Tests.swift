import Foundation
import PhotoCore
import TestSupport
import Testing

@testable import PhotoHashing

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

    /// The sampled fingerprint: SHA-256 over the label, the size (8 bytes, little-endian)
    /// and the head and tail samples, against Python's hashlib for the same bytes.
    @Test func fingerprintGivesTheAssetID() throws {
        let fingerprint = AssetFingerprint(of: Array("abc".utf8))
        #expect(fingerprint.hex == "c2f0f4cee4a26104a8461395f59507843f3b13e98e7fc90f02cee2daecbe37fe")
        #expect(fingerprint.assetID.rawValue == "c2f0f4cee4a2")
        #expect(AssetFingerprint(hex: fingerprint.hex.uppercased()) == fingerprint)
        #expect(AssetFingerprint(hex: "ba7816bf") == nil)
        #expect(AssetFingerprint(hex: String(repeating: "g", count: 64)) == nil)
        #expect(AssetFingerprint(digest: [1, 2, 3]) == nil)
        // One changed byte, an unrelated id; never the plain SHA-256 of the bytes.
        #expect(AssetFingerprint(of: Array("abd".utf8)).assetID != fingerprint.assetID)
        #expect(fingerprint.digest != SHA256.hash(Array("abc".utf8)))
    }

    /// A file longer than two samples: only its size, first and last 64 KiB count.
    @Test func fingerprintSamplesBothEnds() {
        var bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let fingerprint = AssetFingerprint(of: bytes)
        #expect(fingerprint.hex == "7104753b0cc87a25c37fc3b39d62392c79ea8ad98d668e6d096e738d452eedde")
        let ranges = AssetFingerprint.sampleRanges(size: Int64(bytes.count))
        #expect(ranges.head == 0..<65_536)
        #expect(ranges.tail == 134_464..<200_000)
        bytes[100_000] ^= 0xFF  // the middle: not sampled
        #expect(AssetFingerprint(of: bytes) == fingerprint)
        bytes[199_999] ^= 0xFF  // the last byte: sampled
        #expect(AssetFingerprint(of: bytes) != fingerprint)
        // A short file is hashed whole, each byte once.
        #expect(AssetFingerprint.sampleRanges(size: 100_000) == (0..<65_536, 65_536..<100_000))
        #expect(AssetFingerprint.sampleRanges(size: 10) == (0..<10, 10..<10))
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
