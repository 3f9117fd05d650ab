import MediaFormats
import SystemKit

/// Makes and keeps the files of representations other than the original (the compatible
/// JPEG of a HEIC photo), for the file system to serve. The daemon injects one at mount; the
/// file system itself never decodes, so no decoder library runs in the process that
/// answers the kernel.
public protocol RepresentationProviding: Sendable {
    /// The ready file holding `asset` in `form` with its location handled under `location`,
    /// when it is made already (a table read); nil when it must be made from the source
    /// (`make`). A source the decoder refused before is refused again without a decode.
    func file(of asset: Asset, as form: FileRepresentation, location: LocationPolicy) throws(RepresentationError) -> RepresentedFile?

    /// Makes the file `file(of:...)` did not have from `source`, a descriptor of the asset's
    /// file the caller opened and checked against the catalog (the provider closes it), which
    /// may take a decode; a file another caller made meanwhile is returned as it is.
    func make(of asset: Asset, as form: FileRepresentation, location: LocationPolicy, source: Int32) throws(RepresentationError)
        -> RepresentedFile

    /// Forgets a file `file(of:...)` returned that turned out missing or changed (evicted from
    /// the cache), so that the next call makes it again.
    func forget(_ file: RepresentedFile)

    /// The assets whose file could not be made from their current source (the decoder
    /// refused it), with the decoder's reason: withheld from the views, the reason shown in
    /// `.picker`. Known refusals only; nothing is decoded to answer.
    func refusals() -> [AssetID: String]
}

extension RepresentationProviding {
    public func refusals() -> [AssetID: String] { [:] }
}

/// A representation's ready file: where it is and how many bytes it has.
public struct RepresentedFile: Hashable, Sendable {
    public var path: String
    public var size: Int64

    public init(path: String, size: Int64) {
        self.path = path
        self.size = size
    }
}

/// Why a representation could not be had.
public enum RepresentationError: Error, Sendable, Equatable {
    /// The source is not the file the catalog describes (changed or gone).
    case sourceChanged
    /// The source could not be opened or read (errno).
    case sourceUnreadable(errno: Errno)
    /// The source could not be converted (its decoder's reason; never metadata values).
    case cannotConvert(String)
    /// The made file could not be stored (errno).
    case cacheUnwritable(errno: Errno)
}
