import MediaFormats
import PhotoCore
import SystemKit

/// The indexer's analyzer: reads one library file and says what it is, what its metadata
/// says, what its content fingerprint is and how to serve it without location.
///
/// Steps: magic bytes (`MediaSniffer`) → container walk (`ContainerLayout`) → libexif on
/// the first EXIF block that yields anything → merge with what the container itself says
/// (pixel size, video atoms, XMP dates) → redaction plans; the fingerprint comes from the
/// file's first and last 64 KiB, read once before all that (see `SampledFileSource`).
/// Stateless and `Sendable`: the indexer calls it from several threads at once.
public struct FileAnalyzer: AssetAnalyzing {
    /// The largest XMP packet searched for a date.
    static let maxXMPLength = 1 << 20

    public init() {}

    public func analyze(absolutePath: [UInt8]) throws(AnalysisError) -> AssetAnalysis {
        try analyze(absolutePath: absolutePath, folderHasXMP: true)
    }

    /// Skips the sidecar lookup (two failed `open` calls per photo) in folders without XMP.
    public func analyze(absolutePath: [UInt8], folderHasXMP: Bool) throws(AnalysisError) -> AssetAnalysis {
        let source: FileByteSource
        do {
            source = try FileByteSource(path: absolutePath)
        } catch {
            switch error {
            case .system(let code): throw .unreadable(errno: code)
            case .notRegularFile: throw .notMedia
            }
        }
        var analysis = try analyze(source)
        if folderHasXMP, Self.sidecarPlacesPhoto(absolutePath) { analysis.metadata.locationSources.insert(.sidecar) }
        return analysis
    }

    /// Whether an XMP sidecar beside the file places it. Sidecars are not media: no view
    /// serves them, but their position counts for `has:location`.
    static func sidecarPlacesPhoto(_ path: [UInt8]) -> Bool {
        for candidate in XMPSidecar.candidates(for: path) {
            guard let sidecar = try? FileByteSource(path: candidate) else { continue }
            guard sidecar.size <= Int64(XMPSidecar.maxLength), let text = try? sidecar.read(at: 0, count: Int(sidecar.size)) else {
                return true
            }
            if XMPSidecar.placesPhoto(text) { return true }
        }
        return false
    }

    /// Analyses an already opened file. The container walk, the EXIF read and the
    /// redaction planner read from `SampledFileSource`: the file's first and last bytes,
    /// read once, which also give the fingerprint.
    public func analyze(_ file: FileByteSource) throws(AnalysisError) -> AssetAnalysis {
        // Reads are small and scattered (two samples, then what a video's boxes need):
        // readahead would only fetch bytes nobody asked for. A file the first read takes
        // whole needs no advice (and is spared the system call).
        if file.size > Int64(SampledFileSource.headLength) { file.adviseRandomAccess() }
        let source: SampledFileSource
        do {
            source = try SampledFileSource(file)
        } catch {
            switch error {
            case .io(let code): throw .unreadable(errno: Errno(rawValue: code))
            case .outOfRange: throw .unreadable(errno: .ioError)
            }
        }
        guard let format = MediaSniffer.format(of: source) else { throw .notMedia }
        let layout = ContainerWalker.layout(of: source, format: format)
        var metadata = Self.metadata(layout: layout, source: source)
        // The planner's walk is the location model: `has:location` tests what it acts on.
        let report = RedactionPlanner.report(layout: layout, source: source)
        metadata.locationSources = report.found
        // Only Apple's cameras write the identifier: other stills are spared the maker note walk.
        let apple = layout.movie != nil || metadata.make?.hasPrefix("Apple") == true
        return AssetAnalysis(
            fingerprint: source.fingerprint.hex, metadata: metadata, redaction: report.plans,
            contentIdentifier: apple ? LivePhotoIdentifier.read(layout: layout, source: source) : nil)
    }

    /// The fingerprint of a file: SHA-256 over its size and its first and last 64 KiB
    /// (see `AssetFingerprint.sampleRanges`).
    public static func fingerprint(_ file: FileByteSource) throws(AnalysisError) -> AssetFingerprint {
        do {
            return try SampledFileSource(file).fingerprint
        } catch {
            switch error {
            case .io(let code): throw .unreadable(errno: Errno(rawValue: code))
            case .outOfRange: throw .unreadable(errno: .ioError)
            }
        }
    }

    /// Merges what the EXIF blocks, the container and the XMP packets say.
    ///
    /// Order of trust: EXIF for dates, camera, orientation and location; the container for
    /// the pixel size of formats that state it in their own header (JPEG SOF, PNG IHDR, WebP,
    /// HEIF `ispe`, video `tkhd`), because that is what a decoder shows, while EXIF
    /// PixelX/YDimension goes stale when an editor resizes without rewriting EXIF. In TIFF,
    /// DNG and raw files the full-resolution directory (IFD0, or the SubIFD of a raw file
    /// that keeps a preview in IFD0) is the image itself and comes first.
    public static func metadata(layout: ContainerLayout, source: some ByteSource) -> MediaMetadata {
        var metadata = MediaMetadata(format: layout.format)
        metadata.problems = layout.problems
        var facts: EXIFFacts?
        for block in layout.exifBlocks {
            do {
                facts = try EXIFReader.read(source, block: block)
                break
            } catch {
                metadata.problems.append(describe(error, at: block.offset))
            }
        }
        if let facts {
            metadata.hasExif = true
            metadata.captureDate = facts.captureDate
            metadata.dateSource = facts.dateSource ?? .fileModification
            metadata.make = facts.make
            metadata.model = facts.model
            metadata.lens = facts.lens
            metadata.orientation = facts.orientation
            metadata.software = facts.software
            metadata.saysScreenshot = facts.saysScreenshot
            metadata.location = facts.location
            metadata.problems += facts.problems
        }
        let tiffLike = [MediaFormat.tiff, .dng, .raw].contains(layout.format)
        let containerSize = pair(layout.pixelWidth, layout.pixelHeight) ?? pair(layout.movie?.width, layout.movie?.height)
        let exifSize = pair(facts?.pixelXDimension, facts?.pixelYDimension)
        let ifd0Size = pair(facts?.imageWidth, facts?.imageLength)
        let size: (Int, Int)?
        if tiffLike {
            let fullResolution = layout.exifBlocks.first.flatMap { RawImageSize.fullResolution(source, block: $0) }
            size = fullResolution ?? ifd0Size ?? exifSize ?? containerSize
        } else {
            size = containerSize ?? exifSize ?? ifd0Size
        }
        metadata.width = size?.0
        metadata.height = size?.1
        if let movie = layout.movie {
            if metadata.captureDate == nil, let date = movie.creationDate {
                metadata.captureDate = date
                metadata.dateSource = .quickTime
            }
            if metadata.location == nil, let location = movie.location {
                if location.isValid {
                    metadata.location = location
                } else {
                    metadata.problems.append("video location is out of range")
                }
            }
            metadata.make = metadata.make ?? movie.make
            metadata.model = metadata.model ?? movie.model
        }
        // A motion photo's video may be the only thing that places the still.
        if metadata.location == nil, let location = layout.appendedVideos.lazy.compactMap(\.location).first(where: \.isValid) {
            metadata.location = location
        }
        // XMP fills what EXIF and the container left open: the date, the creator tool and a
        // screen-capture comment.
        if metadata.captureDate == nil || metadata.software == nil || !metadata.saysScreenshot {
            for packet in layout.xmpPackets where packet.length > 0 && packet.length <= Int64(maxXMPLength) {
                guard let bytes = try? source.read(at: packet.offset, count: Int(packet.length)) else { continue }
                if metadata.captureDate == nil, let date = XMPDateScanner.captureDate(in: bytes) {
                    metadata.captureDate = date
                    metadata.dateSource = .xmp
                }
                if metadata.software == nil { metadata.software = XMPHints.creatorTool(in: bytes) }
                if !metadata.saysScreenshot { metadata.saysScreenshot = XMPHints.saysScreenshot(in: bytes) }
            }
        }
        if metadata.captureDate == nil { metadata.dateSource = .fileModification }
        return metadata
    }

    private static func pair(_ width: Int?, _ height: Int?) -> (Int, Int)? {
        guard let width, let height, width > 0, height > 0 else { return nil }
        return (width, height)
    }

    private static func describe(_ error: EXIFReadError, at offset: Int64) -> String {
        switch error {
        case .notTIFF: "EXIF block at \(offset): no TIFF header"
        case .outOfMemory: "EXIF block at \(offset): libexif ran out of memory"
        case .empty(let problems): "EXIF block at \(offset): nothing readable (\(problems.joined(separator: "; ")))"
        }
    }
}
