import Foundation
import Glibc
import MediaFormats
import PhotoCore
import SystemKit
import Testing

@testable import PhotoMetadata

/// `FileByteSource` on real files in a temporary directory.
@Suite struct FileByteSourceTests {
    @Test func readsAtOffsetsAndStopsAtTheEnd() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(name: Array("plain.bin".utf8), bytes: Array(0..<200))
        let source = try FileByteSource(path: path)
        #expect(source.size == 200)
        #expect(try source.read(at: 10, count: 3) == [10, 11, 12])
        #expect(try source.read(at: 198, count: 10) == [198, 199])
        #expect(try source.read(at: 200, count: 10) == [])
        #expect(throws: ByteSourceError.outOfRange(offset: 201)) { try source.read(at: 201, count: 1) }
        #expect(throws: ByteSourceError.outOfRange(offset: -1)) { try source.read(at: -1, count: 1) }
    }

    @Test func opensNamesThatAreNotUTF8() throws {
        let directory = try TemporaryDirectory()
        let name: [UInt8] = Array("caf".utf8) + [0xE9, 0xFF] + Array(".jpg".utf8)
        let path = try directory.write(name: name, bytes: [1, 2, 3])
        #expect(try FileByteSource(path: path).read(at: 0, count: 3) == [1, 2, 3])
    }

    @Test func refusesSymlinksDirectoriesAndMissingFiles() throws {
        let directory = try TemporaryDirectory()
        let target = try directory.write(name: Array("target".utf8), bytes: [1])
        let link = directory.path + Array("/link".utf8)
        #expect(symlink(cString(target), cString(link)) == 0)
        #expect(throws: FileByteSource.OpenError.system(Errno(rawValue: ELOOP))) { try FileByteSource(path: link) }
        #expect(throws: FileByteSource.OpenError.notRegularFile) { try FileByteSource(path: directory.path) }
        #expect(throws: FileByteSource.OpenError.system(Errno(rawValue: ENOENT))) {
            try FileByteSource(path: directory.path + Array("/none".utf8))
        }
        #expect(throws: FileByteSource.OpenError.system(Errno(rawValue: EINVAL))) { try FileByteSource(path: [0x61, 0, 0x62]) }
    }

    /// The descriptor is closed when the source goes away (no leak per analysed file).
    @Test func closesItsDescriptor() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(name: Array("f".utf8), bytes: [1])
        let before = openDescriptorCount()
        for _ in 0..<50 { _ = try FileByteSource(path: path).read(at: 0, count: 1) }
        #expect(openDescriptorCount() < before + 25)  // slack: tests running alongside open files too
    }

    private func openDescriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }
}

func cString(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }

/// A fresh directory under /tmp, removed when the value goes away.
final class TemporaryDirectory {
    let path: [UInt8]

    init() throws {
        var template = cString(Array("/tmp/photofs-metadata-XXXXXX".utf8))
        guard mkdtemp(&template) != nil else { throw POSIXError(.EIO) }
        path = template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
    }

    /// Writes a file and returns its absolute path (bytes).
    func write(name: [UInt8], bytes: [UInt8]) throws -> [UInt8] {
        let full = path + [0x2F] + name
        let fd = open(cString(full), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw POSIXError(.EIO) }
        return full
    }

    deinit {
        _ = try? FileManager.default.removeItem(atPath: String(decoding: path, as: UTF8.self))
    }
}
