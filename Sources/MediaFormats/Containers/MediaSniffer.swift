/// Decides a file's media format from its first bytes (magic numbers), never from its name.
///
/// What it recognises:
/// - JPEG (`FF D8 FF`), PNG, GIF87a/89a, WebP (`RIFF....WEBP`).
/// - Classic TIFF (`II*\0`, `MM\0*`): `.dng` when IFD0 has DNGVersion (0xC612); `.raw` for
///   Canon CR2 (the `CR` signature after the header) and for a camera maker's `Make` in IFD0
///   together with a SubIFDs tag (0x014A), which is how NEF, PEF, ARW and similar raw files
///   keep their full-size image; any other TIFF is `.tiff`. ORF (`IIRO`) and RW2 (`IIU\0`)
///   headers are not recognised: libexif and the IFD walker read classic TIFF only.
/// - ISO-BMFF `ftyp` by major and compatible brands (HEIC, HEIF, AVIF, MOV, 3GP, MP4), and
///   old QuickTime files without `ftyp` whose first atom is `moov`, `mdat`, `wide`, `free`,
///   `skip` or `pnot`.
/// - BigTIFF (`II+\0`, `MM\0+`), JPEG XL (bare codestream `FF 0A` or the `JXL ` container),
///   AVI (`RIFF....AVI `), BMP (`BM` with a sane header), MPEG-TS and M2TS/AVCHD (sync bytes).
/// Anything else (Matroska, text) is nil: not an asset.
public enum MediaSniffer {
    /// The media format of `source`, or nil when it is not a format photofs serves.
    public static func format(of source: some ByteSource) -> MediaFormat? {
        let reader = SourceReader(source)
        let head = ByteView(reader.prefix(at: 0, count: 64))
        if head.matches([0xFF, 0xD8, 0xFF], at: 0) { return .jpeg }
        if head.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) { return .png }
        if head.matches("GIF87a", at: 0) || head.matches("GIF89a", at: 0) { return .gif }
        if head.matches("RIFF", at: 0) && head.matches("WEBP", at: 8) { return .webp }
        if reader.size >= 8, let start = head.slice(0, 4), TIFFWalker.isHeader(start) { return tiffFormat(reader, head: head) }
        if head.matches("II+\0", at: 0) || head.matches("MM\0+", at: 0) { return .bigTIFF }
        if head.matches([0xFF, 0x0A], at: 0) || head.matches(JXLWalker.containerSignature, at: 0) { return .jxl }
        if head.matches("RIFF", at: 0) && (head.matches("AVI ", at: 8) || head.matches("AVIX", at: 8)) { return .avi }
        if isBMP(head, size: reader.size) { return .bmp }
        if isTransportStream(reader) { return .mpegTS }
        if head.matches("ftyp", at: 4) { return brandFormat(reader: reader, head: head) }
        if let type = head.u32(4), let size = head.u32(0), size >= 8 || size == 1 || size == 0,
            [fourCCValue("moov"), fourCCValue("mdat"), fourCCValue("wide"), fourCCValue("free"), fourCCValue("skip"), fourCCValue("pnot")]
                .contains(type)
        {
            return .mov
        }
        return nil
    }

    /// `BM`, a file size no larger than the file, and a known info-header size.
    private static func isBMP(_ head: ByteView, size: Int64) -> Bool {
        guard head.matches("BM", at: 0), let declared = head.u32(2, bigEndian: false), let info = head.u32(14, bigEndian: false) else {
            return false
        }
        return Int64(declared) <= size && declared >= 26 && [12, 40, 52, 56, 64, 108, 124].contains(info)
    }

    /// MPEG-TS (188-byte packets starting 0x47) or M2TS/AVCHD (192-byte packets: a 4-byte
    /// timestamp, then the TS packet): the sync byte at three packet starts in a row.
    private static func isTransportStream(_ reader: SourceReader) -> Bool {
        let head = reader.prefix(at: 0, count: 192 * 3)
        for (first, stride) in [(0, 188), (4, 192)] where head.count >= first + 2 * stride + 1 {
            if (0..<3).allSatisfy({ head[first + $0 * stride] == 0x47 }) { return true }
        }
        return false
    }

    /// Camera makers whose raw files are TIFF with the full image in a SubIFD.
    private static let rawMakers = [
        "nikon", "canon", "sony", "pentax", "ricoh", "olympus", "fujifilm", "hasselblad", "leaf", "phase one", "kodak", "mamiya", "samsung",
        "panasonic", "leica", "sigma", "epson",
    ]

    private static func tiffFormat(_ reader: SourceReader, head: ByteView) -> MediaFormat {
        if head.matches("II", at: 0), head.matches("CR", at: 8) { return .raw }
        let tiff = TIFFWalker.firstDirectoryOnly.walk(reader.source, block: ByteRange(offset: 0, length: reader.size))
        guard let order = tiff.byteOrder, let ifd0 = tiff.directory(.main(0)) else { return .tiff }
        if ifd0.entry(0xC612) != nil { return .dng }
        if ifd0.entry(EXIFTag.subIFDs) != nil, let make = TIFFValues(reader.source, order: order).text(ifd0.entry(EXIFTag.make)) {
            let lower = make.lowercased()
            if rawMakers.contains(where: { lower.hasPrefix($0) }) { return .raw }
        }
        return .tiff
    }

    private static func brandFormat(reader: SourceReader, head: ByteView) -> MediaFormat? {
        guard let size32 = head.u32(0) else { return nil }
        // The brand list: major brand, minor version, then compatible brands to the box end.
        var boxSize = Int64(size32)
        var start = 8
        if size32 == 1 {
            guard let large = head.u64(8), large <= UInt64(Int64.max) else { return nil }
            boxSize = Int64(large)
            start = 16
        } else if size32 == 0 {
            boxSize = reader.size
        }
        guard boxSize >= Int64(start) + 8 else { return nil }
        let body = ByteView(reader.prefix(at: Int64(start), count: Int(min(boxSize - Int64(start), 1024))))
        guard let major = body.u32(0) else { return nil }
        var brands = [major]
        var i = 8
        while let brand = body.u32(i) {
            brands.append(brand)
            i += 4
        }
        return format(brands: brands.map(fourCC))
    }

    /// The format named by an `ftyp` brand list (major brand first).
    static func format(brands: [String]) -> MediaFormat? {
        let heic: Set = ["heic", "heix", "hevc", "heim", "heis", "hevm", "hevs", "hevx"]
        let avif: Set = ["avif", "avis"]
        let heif: Set = ["mif1", "msf1", "mif2"]
        let mp4: Set = [
            "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "avc1", "M4V ", "M4VH", "M4VP", "M4A ",
            "mp71", "dash", "msnv", "XAVC", "MSNV", "NDAS", "f4v ", "mmp4",
        ]
        func family(_ brand: String) -> MediaFormat? {
            if heic.contains(brand) { return .heic }
            if avif.contains(brand) { return .avif }
            if heif.contains(brand) { return .heif }
            if brand == "qt  " { return .mov }
            if brand.hasPrefix("3gp") || brand.hasPrefix("3g2") || brand.hasPrefix("3ge") || brand.hasPrefix("3gg") { return .threeGP }
            if mp4.contains(brand) { return .mp4 }
            return nil
        }
        // Image brands win over the generic ISO brands that image files also list; AVIF wins
        // over a plain mif1 but an HEVC brand says HEIC.
        let families = brands.compactMap(family)
        guard let first = families.first else { return nil }
        let images = families.filter { $0 == .heic || $0 == .heif || $0 == .avif }
        if let majorImage = family(brands[0]), majorImage == .heic || majorImage == .avif { return majorImage }
        if images.contains(.heic) && !images.contains(.avif) { return .heic }
        if images.contains(.avif) { return .avif }
        if images.contains(.heif) { return .heif }
        return family(brands[0]) ?? first
    }
}
