import Foundation
import Glibc
import MediaFormats
import PhotoCore
import SystemKit
import Testing

@testable import PickerServer

/// The picker's thumbnails and previews read the library file themselves: like every view,
/// they must refuse a file that is no longer the one the catalog describes (a mount serves
/// its catalog before its startup scan has caught up), or a preview would lay the old
/// file's strip plan over the new file's bytes.
@Suite struct ThumbnailSourceTests {
    /// A file in a fresh directory and the asset that describes it as it is now.
    struct Fixture {
        let directory = NSTemporaryDirectory() + "photofs-thumbs-\(UUID().uuidString)"
        var path: String { directory + "/photo.jpg" }

        init() throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(repeating: 0x41, count: 2048).write(to: URL(fileURLWithPath: path))
        }

        func status() -> stat {
            var status = stat()
            _ = lstat(path, &status)
            return status
        }

        func asset() -> Asset {
            let status = status()
            return Asset(
                id: AssetID("000000000001")!, path: LibraryPath("photo.jpg"), size: Int64(status.st_size),
                mtimeNanoseconds: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
                inode: UInt64(status.st_ino),
                ctimeNanoseconds: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec),
                metadata: MediaMetadata(format: .jpeg), withheld: [])
        }

        func remove() { try? FileManager.default.removeItem(atPath: directory) }
    }

    @Test func theCataloguedFileIsRead() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        #expect(EmbeddedThumbnails.read(fixture.path, of: fixture.asset(), upTo: 4096) == [UInt8](repeating: 0x41, count: 2048))
    }

    @Test func aSameSizeRewriteWithItsMtimeRestoredIsNotRead() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let asset = fixture.asset()
        let before = fixture.status()
        usleep(10_000)
        let fd = open(fixture.path, O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        let other = [UInt8](repeating: 0x42, count: 2048)
        #expect(other.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == 2048)
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, fixture.path, &times, 0) == 0)
        #expect(EmbeddedThumbnails.read(fixture.path, of: asset, upTo: 4096) == nil)
    }

    @Test func aFileRenamedIntoItsPlaceIsNotRead() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let asset = fixture.asset()
        let before = fixture.status()
        let spare = fixture.directory + "/spare.jpg"
        try Data(repeating: 0x43, count: 2048).write(to: URL(fileURLWithPath: spare))
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, spare, &times, 0) == 0)
        #expect(rename(spare, fixture.path) == 0)
        #expect(EmbeddedThumbnails.read(fixture.path, of: asset, upTo: 4096) == nil)
    }

    @Test func aFolderSwappedForASymlinkIsNotFollowed() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outside = fixture.directory + "/outside"
        try FileManager.default.createDirectory(atPath: outside + "/Trips", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: fixture.path, toPath: outside + "/Trips/photo.jpg")
        try FileManager.default.createSymbolicLink(atPath: fixture.directory + "/Trips", withDestinationPath: outside + "/Trips")
        var asset = fixture.asset()
        let status = try FileStatus.of(path: outside + "/Trips/photo.jpg")
        asset.path = LibraryPath("Trips/photo.jpg")
        asset.size = status.size
        asset.inode = status.inode
        asset.mtimeNanoseconds = status.mtimeNanoseconds
        asset.ctimeNanoseconds = status.ctimeNanoseconds
        #expect(EmbeddedThumbnails.read(fixture.directory + "/Trips/photo.jpg", of: asset, upTo: 4096) == nil)
        #expect(EmbeddedThumbnails.read(outside + "/Trips/photo.jpg", of: asset, upTo: 4096) == [UInt8](repeating: 0x41, count: 2048))
    }
}
