import Glibc
import PhotoCore
import Testing

@testable import FuseKit

/// A mount serves its catalog before the startup scan has caught up with the library, so
/// every read must refuse a file that is not the one the catalog describes: one rewritten
/// in place with its size and mtime restored (only the ctime tells), one put in its place
/// by a rename (another inode), one grown or shrunk.
@Suite struct StaleSourceTests {
    /// A library with one recorded file, the reader over its root, and the asset as indexed.
    struct Fixture {
        let library = TestLibrary()
        let libraryFD: Int32
        let asset: Asset
        let path: [UInt8] = Array("2024/photo.jpg".utf8)

        init() throws {
            asset = try library.add(path, [UInt8](repeating: 0x41, count: 4096))
            libraryFD = library.root.cPath { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        }

        var reader: LibraryFileReader { LibraryFileReader(libraryFD: libraryFD) }
        var full: [UInt8] { library.root + "/" + path }

        /// What a read of the indexed asset gives: its bytes, or the error.
        func read() -> Result<[UInt8], ViewLayerError> {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 1)
            defer { buffer.deallocate() }
            do throws(ViewLayerError) {
                let count = try reader.read(asset, at: 0, into: buffer)
                return .success(Array(buffer.prefix(count)))
            } catch {
                return .failure(error)
            }
        }

        func remove() {
            close(libraryFD)
            run(["/bin/rm", "-rf", String(decoding: library.root, as: UTF8.self)])
        }
    }

    @Test func theIndexedFileIsServed() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        #expect(fixture.read() == .success([UInt8](repeating: 0x41, count: 4096)))
    }

    @Test func aSameSizeRewriteWithItsMtimeRestoredIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let before = try ByteFiles.stat(fixture.full)
        usleep(10_000)  // a ctime the clock can tell from the first
        let fd = fixture.full.cPath { open($0, O_WRONLY | O_CLOEXEC) }
        try #require(fd >= 0)
        let other = [UInt8](repeating: 0x42, count: 4096)
        #expect(other.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == 4096)
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        #expect(fixture.full.cPath { utimensat(AT_FDCWD, $0, &times, 0) } == 0)
        let after = try ByteFiles.stat(fixture.full)
        try #require(after.st_size == before.st_size && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec && after.st_ino == before.st_ino)
        #expect(fixture.read() == .failure(.stale))
    }

    @Test func aFileRenamedIntoItsPlaceIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let before = try ByteFiles.stat(fixture.full)
        let spare = fixture.library.root + Array("/spare.jpg".utf8)
        try ByteFiles.write(spare, [UInt8](repeating: 0x43, count: 4096))
        var times = [before.st_atim, before.st_mtim]
        #expect(spare.cPath { utimensat(AT_FDCWD, $0, &times, 0) } == 0)
        #expect(spare.cPath { from in fixture.full.cPath { rename(from, $0) } } == 0)
        let after = try ByteFiles.stat(fixture.full)
        try #require(after.st_ino != before.st_ino)
        #expect(fixture.read() == .failure(.stale))
    }

    @Test func aFileOfAnotherSizeOrAGoneFileIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try ByteFiles.write(fixture.full, [UInt8](repeating: 0x41, count: 4097))
        #expect(fixture.read() == .failure(.stale))
        #expect(fixture.full.cPath { unlink($0) } == 0)
        #expect(fixture.read() == .failure(.stale))
    }
}
