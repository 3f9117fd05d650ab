import PhotoCore
import PhotoImaging
import PickerServer

/// The picker page's grid images from the freedesktop thumbnail cache (`photofs
/// thumbnails` fills it ahead; a missing one is made on demand by a decoder process, so a
/// hostile file can only fail its own tile). A file no decoder handles falls back to its
/// embedded EXIF thumbnail, and without one to a typed placeholder naming the file, so a
/// tile never goes blank. Previews stay the location-stripped bytes. A cached thumbnail is
/// decoded pixels with only `Thumb::URI`, `Thumb::MTime` and the file version beside them:
/// no location.
struct CachedThumbnails: ThumbnailSource {
    let service: ThumbnailService
    let embedded: EmbeddedThumbnails

    /// Thumbnails from `service`'s cache; previews stripped with the plans in `plans`.
    init(service: ThumbnailService, plans: any RedactionPlanSource) {
        self.service = service
        self.embedded = EmbeddedThumbnails(plans: plans)
    }

    func thumbnail(of asset: Asset, path: String) -> (bytes: [UInt8], type: String)? {
        // Opened below the library root with the catalogued version checked, as a read is.
        if let root = asset.libraryRoot(inPath: path),
            let made = try? service.thumbnail(of: asset, libraryRoot: Array(root.utf8), size: .normal)
        {
            return (made.png, "image/png")
        }
        if let thumbnail = embedded.thumbnail(of: asset, path: path) { return thumbnail }
        let name = String(decoding: asset.path.fileName, as: UTF8.self)
        let label = ThumbnailPlaceholder.typeLabel(format: asset.metadata.format, name: name)
        return (ThumbnailPlaceholder.svg(name: name, typeLabel: label), ThumbnailPlaceholder.mime)
    }

    func preview(of asset: Asset, path: String) -> (bytes: [UInt8], type: String)? {
        embedded.preview(of: asset, path: path)
    }
}
