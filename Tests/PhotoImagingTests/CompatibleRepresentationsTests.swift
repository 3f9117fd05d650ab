import Foundation
import Glibc
import MediaFormats
import PhotoCore
import SystemKit
import TestSupport
import Testing

@testable import PhotoImaging

/// The maker of a mount's compatible JPEGs: made once per catalogued version (the source is
/// opened only then), kept on disk for the next mount, made again when the cache lost the
/// file, and a source the decoder refuses is refused again without another decode.
@Suite struct CompatibleRepresentationsTests {
    static func asset(_ path: String, size: Int64, mtime: Int64 = 1) -> Asset {
        Asset(
            id: AssetID("00000000000a")!, path: LibraryPath(path), size: size, mtimeNanoseconds: mtime, inode: 1,
            metadata: MediaMetadata(format: .heic), redaction: RedactionPlans(strip: .identity, coarse: .identity))
    }

    /// A source-opening closure that counts its calls.
    final class Opener: @unchecked Sendable {
        let path: String
        var calls = 0
        init(_ path: String) { self.path = path }
        func open() throws(RepresentationError) -> Int32 {
            calls += 1
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .sourceUnreadable(errno: .current) }
            return fd
        }
    }

    @Test func madeOncePerVersionKeptOnDiskAndMadeAgainWhenLost() throws {
        guard let encoder = Fixture.tool("heif-enc"), Fixture.photofsBuilt else {
            try Skip.because("a prerequisite is missing (the line above says which)")
        }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let source = try Fixture.heic(encoder, of: Fixture.quadrants(width: 320, height: 240), in: dir, named: "q")
        let asset = Self.asset("q.heic", size: Int64(Fixture.read(source).count))
        let cache = CompatibleCache(root: dir + "/cache")
        let pool = DecoderPool(executable: Fixture.photofs, size: 1)
        defer { pool.shutdown() }
        let provider = CompatibleRepresentations(cache: cache, pool: pool)
        let opener = Opener(source)
        let form = FileRepresentation.compatibleJPEG(quality: 80)

        let first = try provider.file(of: asset, as: form, location: .strip) { () throws(RepresentationError) -> Int32 in try opener.open()
        }
        let jpeg = Fixture.read(first.path)
        #expect(Int64(jpeg.count) == first.size)
        #expect(try JPEGCodec.decode(jpeg).width == 320)
        #expect(first.path.hasPrefix(dir + "/cache/"))
        // Asked again (every stat): no source opened, no decode.
        let again = try provider.file(of: asset, as: form, location: .strip) { () throws(RepresentationError) -> Int32 in try opener.open()
        }
        #expect(again == first)
        #expect(opener.calls == 1)
        // Another quality or policy is another file.
        let sharp = try provider.file(of: asset, as: .compatibleJPEG(quality: 95), location: .strip) {
            () throws(RepresentationError) -> Int32 in try opener.open()
        }
        #expect(sharp.path != first.path && sharp.size > first.size)

        // A new provider (a remount) finds the file on disk: the source is opened, not decoded.
        let remounted = CompatibleRepresentations(cache: cache, pool: DecoderPool(executable: "/bin/false", size: 1))
        #expect(
            try remounted.file(of: asset, as: form, location: .strip) { () throws(RepresentationError) -> Int32 in try opener.open() }
                == first)

        // Evicted behind the provider's back: forget, and the next call makes it again.
        unlink(first.path)
        provider.forget(first)
        let remade = try provider.file(of: asset, as: form, location: .strip) { () throws(RepresentationError) -> Int32 in try opener.open()
        }
        #expect(remade.size == first.size && Fixture.read(remade.path) == jpeg)
    }

    @Test func aRefusedSourceIsNotDecodedAgainAndAChangedOneIs() throws {
        guard Fixture.photofsBuilt else { try Skip.because("the photofs binary is not built") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let source = dir + "/bad.heic"
        // An ftyp box that says HEIC and nothing else.
        Fixture.write([0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8), to: source)
        let provider = CompatibleRepresentations(
            cache: CompatibleCache(root: dir + "/cache"), pool: DecoderPool(executable: Fixture.photofs, size: 1))
        let opener = Opener(source)
        let asset = Self.asset("bad.heic", size: 24)
        for _ in 0..<3 {
            #expect(throws: RepresentationError.self) {
                try provider.file(of: asset, as: .compatibleJPEG(quality: 80), location: .strip) {
                    () throws(RepresentationError) -> Int32 in try opener.open()
                }
            }
        }
        #expect(opener.calls == 1)
        // A source that changed is another version: tried again.
        #expect(throws: RepresentationError.self) {
            try provider.file(of: Self.asset("bad.heic", size: 24, mtime: 2), as: .compatibleJPEG(quality: 80), location: .strip) {
                () throws(RepresentationError) -> Int32 in try opener.open()
            }
        }
        #expect(opener.calls == 2)
        // A source that cannot be opened says so.
        #expect(throws: RepresentationError.sourceUnreadable(errno: .noSuchFileOrDirectory)) {
            try provider.file(of: Self.asset("gone.heic", size: 1), as: .compatibleJPEG(quality: 80), location: .strip) {
                () throws(RepresentationError) -> Int32 in try Opener(dir + "/gone.heic").open()
            }
        }
    }

    @Test func imagingConvertsWhatViewsServeAsJPEG() {
        #expect(CompatibleJPEG.sourceFormats == Representation.convertedFormats)
        #expect(CompatibleJPEG.defaultQuality == JPEGQualityText.defaultQuality)
    }

    @Test func bytesRequestsTravelWhole() {
        let request = DecoderRequest.compatibleJPEGData(bytes: [1, 2, 3, 0, 255], quality: 80, location: .coarse)
        #expect(FrameCodec.decodeRequest(FrameCodec.encode(request)) == request)
        #expect(FrameCodec.decodeRequest(Array(FrameCodec.encode(request).dropLast())) == nil)
    }
}

extension CompatibleRepresentations {
    /// What the view layer does (`ViewLayer+Representations`): the made file, else the
    /// source opened by the caller (`source`) and handed in to be made.
    func file(
        of asset: Asset, as form: FileRepresentation, location: LocationPolicy, opening source: () throws(RepresentationError) -> Int32
    ) throws(RepresentationError) -> RepresentedFile {
        if let known = try file(of: asset, as: form, location: location) { return known }
        return try make(of: asset, as: form, location: location, source: try source())
    }
}
