// The one place that touches libexif.
//
// Supports: loading one TIFF-structured EXIF block from memory (as libexif's "Exif\0\0"
// form), reading the raw entries of IFD0, IFD1, the Exif IFD and the GPS IFD, and
// collecting libexif's corrupt-data messages instead of letting them reach stderr.
// Does not support: maker notes (libexif parses them, we never read them), thumbnails,
// writing. libexif's FOLLOW_SPECIFICATION option is switched off so that nothing is
// "fixed" in memory: we read what the file holds.
import CExif

/// One EXIF block loaded by libexif. Owns the `ExifData` and its `ExifLog` and frees
/// both when released. Not shared between threads: each analysis makes its own.
final class LibexifDocument {
    private let data: UnsafeMutablePointer<ExifData>
    private let log: OpaquePointer
    private let messages: LibexifMessages

    /// The largest block libexif reads: it caps the data after `Exif\0\0` at 0xfffe bytes
    /// (the JPEG APP1 limit), so longer blocks must be repacked first.
    static let maxBlockLength = 0xfffe - 6

    /// The six bytes libexif wants before the TIFF header when the data is not a JPEG.
    private static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    /// Loads `tiffBlock` (starting at `II*\0` or `MM\0*`); nil when libexif cannot allocate.
    init?(tiffBlock: [UInt8]) {
        guard let data = exif_data_new() else { return nil }
        guard let log = exif_log_new() else {
            exif_data_unref(data)
            return nil
        }
        self.data = data
        self.log = log
        self.messages = LibexifMessages()
        exif_log_set_func(log, libexifLogSink, Unmanaged.passUnretained(messages).toOpaque())
        // exif_data_log hands the log to the data and its IFDs (and later to the maker note).
        exif_data_log(data, log)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        // Unknown tags (and known tags in an IFD where the spec does not expect them, such as
        // a DateTimeOriginal in IFD0) are kept: we look entries up by number and IFD, so
        // keeping them costs memory only and lets us read what the file holds.
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_set_option(data, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE)
        let bytes = Self.exifHeader + tiffBlock.prefix(Self.maxBlockLength)
        bytes.withUnsafeBufferPointer { buffer in
            exif_data_load_data(data, buffer.baseAddress, UInt32(buffer.count))
        }
    }

    deinit {
        exif_data_unref(data)
        exif_log_unref(log)
    }

    /// Whether the block's byte order is big-endian (`MM`).
    var bigEndian: Bool { exif_data_get_byte_order(data) == EXIF_BYTE_ORDER_MOTOROLA }

    /// libexif's complaints about corrupt data while loading (never a value from the file).
    var problems: [String] { messages.lines }

    /// The number of entries libexif loaded in `ifd`.
    func entryCount(in ifd: EXIFDirectory) -> Int {
        guard let content = content(ifd) else { return 0 }
        return Int(content.pointee.count)
    }

    /// The entry `tag` in `ifd` as stored in the file, or nil when absent.
    func entry(_ tag: UInt16, in ifd: EXIFDirectory) -> EXIFEntry? {
        guard let content = content(ifd), let entry = exif_content_get_entry(content, CExif.ExifTag(rawValue: UInt32(tag))) else {
            return nil
        }
        let size = Int(entry.pointee.size)
        var bytes: [UInt8] = []
        if let payload = entry.pointee.data, size > 0 {
            bytes = Array(UnsafeBufferPointer(start: payload, count: size))
        }
        return EXIFEntry(
            tag: tag, format: UInt16(truncatingIfNeeded: entry.pointee.format.rawValue),
            components: Int(clamping: entry.pointee.components), bytes: bytes, bigEndian: bigEndian)
    }

    private func content(_ ifd: EXIFDirectory) -> UnsafeMutablePointer<ExifContent>? {
        let all = data.pointee.ifd
        switch ifd {
        case .ifd0: return all.0
        case .ifd1: return all.1
        case .exif: return all.2
        case .gps: return all.3
        case .interoperability: return all.4
        }
    }
}

/// The image file directories libexif keeps apart.
enum EXIFDirectory: CaseIterable {
    case ifd0, ifd1, exif, gps, interoperability
}

/// Collects libexif's corrupt-data and out-of-memory messages for one document.
private final class LibexifMessages {
    private(set) var lines: [String] = []

    /// At most this many messages are kept; a hostile file can produce thousands.
    static let limit = 8

    func append(_ line: String) {
        if lines.count < Self.limit { lines.append(line) }
    }
}

/// libexif's log callback: formats corrupt-data and out-of-memory messages into the
/// document's collector and drops debug chatter. Nothing is printed.
private func libexifLogSink(
    _ log: OpaquePointer?, _ code: ExifLogCode, _ domain: UnsafePointer<CChar>?, _ format: UnsafePointer<CChar>?,
    _ arguments: CVaListPointer?, _ context: UnsafeMutableRawPointer?
) {
    guard code == EXIF_LOG_CODE_CORRUPT_DATA || code == EXIF_LOG_CODE_NO_MEMORY, let format, let arguments, let context
    else { return }
    let messages = Unmanaged<LibexifMessages>.fromOpaque(context).takeUnretainedValue()
    guard messages.lines.count < LibexifMessages.limit else { return }
    var buffer = [CChar](repeating: 0, count: 200)
    _ = buffer.withUnsafeMutableBufferPointer { photofs_exif_format($0.baseAddress, $0.count, format, arguments) }
    let text = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let origin = domain.map { String(cString: $0) } ?? "libexif"
    messages.append("libexif (\(origin)): \(text)")
}
