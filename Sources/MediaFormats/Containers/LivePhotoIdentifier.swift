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

    /// The identifier in an Apple maker note's bytes; nil when the note is not Apple's or has none.
    public static func fromMakerNote(_ note: [UInt8]) -> String? {
        guard note.count >= 16, Array(note.prefix(header.count)) == header else { return nil }
        let view = ByteView(note)
        let bigEndian: Bool
        switch (note[12], note[13]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        guard let count = view.u16(14, bigEndian: bigEndian), count <= 512 else { return nil }
        for index in 0..<Int(count) {
            let entry = 16 + 12 * index
            guard let tag = view.u16(entry, bigEndian: bigEndian), let type = view.u16(entry + 2, bigEndian: bigEndian),
                let length = view.u32(entry + 4, bigEndian: bigEndian)
            else { return nil }
            // ASCII (type 2) only: another type under this tag is not an identifier.
            guard tag == makerNoteTag, type == 2, length > 0, length <= UInt32(maxLength) else { continue }
            let start: Int
            if length <= 4 {
                start = entry + 8
            } else {
                guard let offset = view.u32(entry + 8, bigEndian: bigEndian) else { return nil }
                start = Int(offset)
            }
            guard let bytes = view.slice(start, Int(length)) else { return nil }
            return text(bytes)
        }
        return nil
    }

    /// The printable text before the first NUL; nil when empty or not plain ASCII (an
    /// identifier is compared byte for byte, so nothing is guessed).
    static func text(_ bytes: some Collection<UInt8>) -> String? {
        let value = Array(bytes.prefix { $0 != 0 })
        guard !value.isEmpty, value.count <= maxLength, value.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: value, as: UTF8.self)
    }
}
