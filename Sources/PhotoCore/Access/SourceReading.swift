/// Reads the bytes of a catalogued library file for the view layer, which has no C and no
/// file system of its own: the FUSE adapter gives it one that opens below the library root
/// with no symbolic links (openat2) and checks the file is still the one the catalog
/// describes; tests may give it the same one.
public protocol SourceReading: Sendable {
    /// Fills `buffer` from `asset`'s file at `offset`; returns the number of bytes read
    /// (fewer at the end of the file). Throws `.stale` when the file is gone or no longer
    /// matches the catalog's size and times.
    func read(_ asset: Asset, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ViewLayerError) -> Int
}
