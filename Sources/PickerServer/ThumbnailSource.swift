import MediaFormats
import PhotoCore
import SystemKit

/// Where the picker's grid and preview images come from. The seam an imaging module
/// replaces with its thumbnail cache; whatever it returns must hold no location.
public protocol ThumbnailSource: Sendable {
    /// A small image of `asset` (whose file is `path`, absolute), or nil.
    func thumbnail(of asset: Asset, path: String) -> (bytes: [UInt8], type: String)?
    /// A larger image for the preview, or nil.
    func preview(of asset: Asset, path: String) -> (bytes: [UInt8], type: String)?
}

/// Thumbnails embedded in the EXIF block (IFD1 of a JPEG's APP1), with every APPn and COM
/// segment of the thumbnail removed; previews are the file's bytes with the location
/// stripped by the asset's redaction plan (read from `plans`), for formats a browser shows,
/// up to 40 MB.
public struct EmbeddedThumbnails: ThumbnailSource {
    /// Where the strip plans are stored (the catalog).
    let plans: any RedactionPlanSource

    public init(plans: any RedactionPlanSource) {
        self.plans = plans
    }

    public func thumbnail(of asset: Asset, path: String) -> (bytes: [UInt8], type: String)? {
        guard asset.metadata.format == .jpeg, let head = Self.read(path, of: asset, upTo: 256 << 10),
            let thumbnail = EXIFThumbnail.extract(head)
        else {
            // No embedded thumbnail: a small file is its own thumbnail (location stripped).
            return asset.size <= 512 << 10 ? preview(of: asset, path: path) : nil
        }
        return (thumbnail, "image/jpeg")
    }

    public func preview(of asset: Asset, path: String) -> (bytes: [UInt8], type: String)? {
        let shown: [MediaFormat] = [.jpeg, .png, .gif, .webp]
        guard shown.contains(asset.metadata.format), asset.size <= 40 << 20 else { return nil }
        // Never the original bytes: only what a location-stripping view would serve.
        guard case .location(let plan)? = try? plans.plan(of: asset, location: .strip, metadata: .keep), let patches = plan.patchesToServe
        else { return nil }
        guard var bytes = Self.read(path, of: asset, upTo: Int(asset.size)), bytes.count == Int(asset.size) else { return nil }
        PatchOverlay.apply(patches, to: &bytes, at: 0)
        return (bytes, asset.metadata.format.mime)
    }

    /// Up to `limit` bytes from the start of `asset`'s file at `path` (the library root,
    /// `/`, then the asset's path). The file is opened like the mount opens it
    /// (`SourceOpener`): below the library root, through no symbolic link, and only while
    /// it still has the catalog's size, mtime, inode and ctime; a file changed since it was
    /// indexed must not be shown, least of all with the old plan. Nil otherwise, and for a
    /// path that is not the asset's below a root.
    static func read(_ path: String, of asset: Asset, upTo limit: Int) -> [UInt8]? {
        guard let fd = LibrarySource.open(asset, at: path) else { return nil }
        defer { fd.close() }
        return try? fd.read(count: limit, at: 0)
    }
}

/// Finds the thumbnail JPEG in IFD1 of a JPEG's EXIF block.
enum EXIFThumbnail {
    static func extract(_ jpeg: [UInt8]) -> [UInt8]? {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF {
            let marker = jpeg[position + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            let start = position + 4
            let end = position + 2 + length
            guard length >= 2, end <= jpeg.count else { return nil }
            if marker == 0xE1, end - start > 14, Array(jpeg[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return fromTIFF(Array(jpeg[start + 6..<end]))
            }
            position = end
        }
        return nil
    }

    private static func fromTIFF(_ tiff: [UInt8]) -> [UInt8]? {
        guard tiff.count >= 8 else { return nil }
        let little = tiff[0] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd0 = u32(4), let count0 = u16(ifd0), let ifd1 = u32(ifd0 + 2 + count0 * 12), ifd1 > 0, let count1 = u16(ifd1) else {
            return nil
        }
        var offset: Int?
        var length: Int?
        for index in 0..<min(count1, 64) {
            let entry = ifd1 + 2 + index * 12
            switch u16(entry) {
            case 0x0201: offset = u32(entry + 8)
            case 0x0202: length = u32(entry + 8)
            default: break
            }
        }
        guard let offset, let length, length > 4, offset + length <= tiff.count else { return nil }
        return strippedSegments(Array(tiff[offset..<offset + length]))
    }

    /// The JPEG without APPn and COM segments (where any metadata, a location included, lives).
    static func strippedSegments(_ jpeg: [UInt8]) -> [UInt8]? {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var out: [UInt8] = [0xFF, 0xD8]
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF {
            let marker = jpeg[position + 1]
            if marker == 0xDA {
                out += jpeg[position...]
                return out
            }
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            let end = position + 2 + length
            guard length >= 2, end <= jpeg.count else { return nil }
            if !((0xE0...0xEF).contains(marker) || marker == 0xFE) { out += jpeg[position..<end] }
            position = end
        }
        return nil
    }
}
