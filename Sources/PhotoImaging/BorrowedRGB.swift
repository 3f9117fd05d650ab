/// Interleaved 8-bit RGB rows owned by a decoder and lent for the duration of a closure
/// (see `HEIFCodec.withRGB`): an encoder reads them where they are, so a 12 MP picture is
/// not copied (36 MB) into a `PixelImage` on its way to the JPEG encoder.
struct BorrowedRGB {
    var width: Int
    var height: Int
    /// The first byte of the top row; each row holds `width` × 3 bytes.
    var rows: UnsafePointer<UInt8>
    /// Bytes from the start of one row to the start of the next (at least `width` × 3).
    var stride: Int
}
