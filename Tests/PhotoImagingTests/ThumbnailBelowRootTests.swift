import Foundation
import Glibc
import PhotoCore
import PhotoImaging
import SystemKit
import TestSupport
import Testing

/// A catalogued asset's thumbnail is made from its file opened like the mount opens it, in
/// the service and in the decoder process: below the library root, through no symbolic
/// link, and only while the file is the catalogued version.
@Suite struct ThumbnailBelowRootTests {
    /// The asset that describes the file `relative` below `root` as it is now.
    static func asset(_ root: String, _ relative: String) throws -> Asset {
        let status = try FileStatus.of(path: root + "/" + relative)
        return Asset(
            id: AssetID("000000000001")!, path: LibraryPath(relative), size: status.size, mtimeNanoseconds: status.mtimeNanoseconds,
            inode: status.inode, ctimeNanoseconds: status.ctimeNanoseconds, metadata: MediaMetadata(format: .jpeg), withheld: [])
    }

    @Test func theCataloguedFileIsThumbnailedAndNothingElse() throws {
        guard Fixture.photofsBuilt else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let library = dir + "/library"
        let outside = dir + "/outside"
        for folder in [library + "/Trips", outside + "/Trips"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        Fixture.write(try Fixture.jpeg(Fixture.quadrants(width: 320, height: 240)), to: library + "/Trips/photo.jpg")
        let service = ThumbnailService(
            pool: DecoderPool(executable: Fixture.photofs, size: 1), cache: ThumbnailCache(root: dir + "/thumbnails"))
        let asset = try Self.asset(library, "Trips/photo.jpg")
        let made = try service.thumbnail(of: asset, libraryRoot: Array(library.utf8), size: .normal)
        #expect(made.origin == .decoded)
        #expect(PNGChunks.text(of: made.png)["Thumb::URI"] == "file://\(library)/Trips/photo.jpg")

        // Another version of the file (the catalog is behind): refused, not thumbnailed.
        var changed = asset
        changed.size += 1
        #expect(throws: ImagingError.io(path: library + "/Trips/photo.jpg", errno: .stale)) {
            try service.thumbnail(of: changed, libraryRoot: Array(library.utf8), size: .normal, force: true)
        }

        // The folder swapped for a symlink to a look-alike outside: never followed, neither
        // by the service nor by a decoder asked directly.
        try FileManager.default.moveItem(atPath: library + "/Trips/photo.jpg", toPath: outside + "/Trips/photo.jpg")
        try FileManager.default.removeItem(atPath: library + "/Trips")
        try FileManager.default.createSymbolicLink(atPath: library + "/Trips", withDestinationPath: outside + "/Trips")
        let moved = try Self.asset(outside, "Trips/photo.jpg")
        #expect(throws: ImagingError.self) {
            try service.thumbnail(of: moved, libraryRoot: Array(library.utf8), size: .normal, force: true)
        }
        let direct = DecoderWorker.handle(
            .thumbnailBelow(root: Array(library.utf8), path: Array("Trips/photo.jpg".utf8), stamp: moved.fileStamp, box: 64, text: []))
        guard case .failed(.io(_, let code)) = direct else {
            Issue.record("a decoder followed a symlinked folder: \(direct)")
            return
        }
        #expect(code == .tooManySymbolicLinkLevels || code == .improperLink || code == .notDirectory)
    }
}
