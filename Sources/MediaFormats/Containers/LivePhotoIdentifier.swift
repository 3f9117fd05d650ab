/// Reads the identifier Apple writes into both halves of a Live Photo: the still (HEIC or
/// JPEG) carries it in its Apple maker note (tag 0x0011, `ContentIdentifier`), the video
/// (MOV) as the value of the `mdta` key `com.apple.quicktime.content.identifier`. Two files
/// with the same identifier are one Live Photo.
///
/// Apple's maker note is an IFD after a 14-byte header (`Apple iOS`, NUL, a version, then
/// `MM` or `II`), with value offsets counted from the start of the note. Anything that does
/// not read exactly so yields no identifier: a file without one is simply not paired.
public enum LivePhotoIdentifier {
    /// The maker note tag holding the identifier.
    static let makerNoteTag: UInt16 = 0x0011
    /// The EXIF MakerNote tag.
    static let makerNote: UInt16 = 0x927C
    /// The largest maker note read (Apple's are a few KiB).
    static let maxNoteLength = 1 << 16
    /// The longest identifier kept (Apple's are UUIDs: 36 characters).
    static let maxLength = 128
    static let header = Array("Apple iOS".utf8) + [0]

    /// The identifier of a walked file: from the video's keys, or from the maker note of the
    /// first EXIF block that has one; nil when there is none.
    public static func read(layout: ContainerLayout, source: some ByteSource) -> String? {
        if let movie = layout.movie?.contentIdentifier { return movie }
        for block in layout.exifBlocks {
            let tiff = TIFFWalker().walk(source, block: block)
            for directory in tiff.directories {
                for entry in directory.entries where entry.tag == makerNote {
                    guard let range = entry.value, range.length <= Int64(maxNoteLength),
                        let note = try? source.read(at: range.offset, count: Int(range.length))
                    else { continue }
                    if let identifier = fromMakerNote(note) { return identifier }
                }
            }
        }
        return nil
    }

    /// The identifier in an Apple maker note's bytes; nil when the note is not Apple's or has
    /// none. The note's IFD is read by `TIFFWalker`, the one IFD reader.
    public static func fromMakerNote(_ note: [UInt8]) -> String? {
        guard note.count >= 16, Array(note.prefix(header.count)) == header else { return nil }
        let order: TIFFByteOrder
        switch (note[12], note[13]) {
        case (0x4D, 0x4D): order = .bigEndian
        case (0x49, 0x49): order = .littleEndian
        default: return nil
        }
        let source = MemoryByteSource(note)
        let layout = TIFFWalker().walkDirectory(source, block: ByteRange(offset: 0, length: Int64(note.count)), order: order, at: 14)
        // ASCII only (`TIFFValues.text`): another type under this tag is not an identifier.
        guard let entry = layout.directories.first?.entry(makerNoteTag),
            let value = TIFFValues(source, order: order).text(entry, maxBytes: maxLength)
        else { return nil }
        return text(Array(value.utf8))
    }

    /// The printable text before the first NUL; nil when empty or not plain ASCII (an
    /// identifier is compared byte for byte, so nothing is guessed).
    static func text(_ bytes: some Collection<UInt8>) -> String? {
        let value = Array(bytes.prefix { $0 != 0 })
        guard !value.isEmpty, value.count <= maxLength, value.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: value, as: UTF8.self)
    }
}
