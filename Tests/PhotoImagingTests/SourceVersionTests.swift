import Foundation
import Glibc
import MediaFormats
import PhotoCore
import SystemKit
import TestSupport
import Testing

@testable import PhotoImaging

/// Thumbnails and compatible JPEGs are keyed by the source's version, not by its size and
/// modification time alone: a same-size overwrite with the modification time set back
/// (`touch -d`) keeps both, but not the change time, and the new picture must be served.
@Suite struct SourceVersionTests {
    /// `bytes` with a trailing ISO-BMFF `free` box that makes them `size` bytes long.
    static func padded(_ bytes: [UInt8], to size: Int) -> [UInt8] {
        let extra = size - bytes.count
        precondition(extra >= 8)
        return bytes + [UInt8(extra >> 24 & 0xFF), UInt8(extra >> 16 & 0xFF), UInt8(extra >> 8 & 0xFF), UInt8(extra & 0xFF)]
            + Array("free".utf8) + [UInt8](repeating: 0, count: extra - 8)
    }

    static func asset(_ path: String) -> Asset {
        var info = stat()
        _ = stat(path, &info)
        return Asset(
            id: AssetID("00000000000b")!, path: LibraryPath("photo.heic"), size: Int64(info.st_size),
            mtimeNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec), inode: UInt64(info.st_ino),
            ctimeNanoseconds: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
            metadata: MediaMetadata(format: .heic), redaction: RedactionPlans(strip: .identity, coarse: .identity))
    }

    @Test func aSameSizeOverwriteWithItsMtimeSetBackServesTheNewPicture() throws {
        guard let encoder = Fixture.tool("heif-enc"), Fixture.photofsBuilt else {
            try Skip.because("a prerequisite is missing (heif-enc or the built photofs)")
        }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        // Two pictures: the quadrants, and the same turned half a turn (other corners).
        let first = Fixture.read(try Fixture.heic(encoder, of: Fixture.quadrants(width: 320, height: 240), in: dir, named: "a"))
        let second = Fixture.read(
            try Fixture.heic(encoder, of: Fixture.quadrants(width: 320, height: 240).oriented(3), in: dir, named: "b"))
        let size = max(first.count, second.count) + 64
        let source = dir + "/photo.heic"
        Fixture.write(Self.padded(first, to: size), to: source)

        let pool = DecoderPool(executable: Fixture.photofs, size: 1)
        defer { pool.shutdown() }
        let cache = CompatibleCache(root: dir + "/compatible")
        let thumbnails = ThumbnailService(pool: pool, cache: ThumbnailCache(root: dir + "/thumbnails"))
        let form = FileRepresentation.compatibleJPEG(quality: 80)
        func compatible(_ asset: Asset) throws -> String {
            // A new provider each time, as after a remount: only the disk cache is shared.
            let provider = CompatibleRepresentations(cache: cache, pool: pool)
            let jpeg = try provider.file(of: asset, as: form, location: .strip) { () throws(RepresentationError) -> Int32 in
                let fd = open(source, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw .sourceUnreadable(errno: .current) }
                return fd
            }
            return Fixture.corners(try JPEGCodec.decode(Fixture.read(jpeg.path)))
        }
        func thumbnail() throws -> String {
            Fixture.corners(try PNGCodec.decode(try thumbnails.thumbnail(forFile: Array(source.utf8), size: .normal).png))
        }
        #expect(try compatible(Self.asset(source)) == "RGBW")
        #expect(try thumbnail() == "RGBW")

        // Overwrite in place (same inode, same size) and set the times back.
        var before = stat()
        try #require(stat(source, &before) == 0)
        usleep(20_000)
        let fd = open(source, O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        let replacement = Self.padded(second, to: size)
        #expect(replacement.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == size)
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        try #require(utimensat(AT_FDCWD, source, &times, 0) == 0)
        var after = stat()
        try #require(stat(source, &after) == 0)
        try #require(after.st_size == before.st_size && after.st_ino == before.st_ino && after.st_mtim.tv_sec == before.st_mtim.tv_sec)

        // Indexed again: the catalog's asset now has the new change time.
        #expect(try compatible(Self.asset(source)) == "BWRG")
        #expect(try thumbnail() == "BWRG")
    }
}
