/// Reads the bytes of a catalogued library file for the view layer, which has no C and no
/// file system of its own: the FUSE adapter gives it one that opens below the library root
/// with no symbolic links (openat2) and checks the file is still the one the catalog
/// describes; tests may give it the same one. It also reads the made files of other
/// representations (compatible JPEGs), which live outside the library.
public protocol SourceReading: Sendable {
    /// Fills `buffer` from `asset`'s file at `offset`; returns the number of bytes read
    /// (fewer at the end of the file). Throws `.stale` when the file is gone or no longer
    /// matches the catalog's size and times.
    func read(_ asset: Asset, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ViewLayerError) -> Int

    /// Checks that `asset`'s file is still the one the catalog describes, as `read` does
    /// (`.stale` otherwise), without reading it.
    func checkSource(_ asset: Asset) throws(ViewLayerError)

    /// Opens `asset`'s file, checked as for `read`, for a `RepresentationProviding` to make
    /// another representation from; the caller owns (and closes) the descriptor.
    func openSource(_ asset: Asset) throws(ViewLayerError) -> Int32

    /// Fills `buffer` from a representation's made file at `offset`; returns the number of
    /// bytes read, or nil when the file is gone or no longer has `file.size` bytes (a cache
    /// evicted or replaced it: the provider must make it again).
    func read(_ file: RepresentedFile, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ViewLayerError) -> Int?
}
