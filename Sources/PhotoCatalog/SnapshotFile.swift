import Dispatch
import MediaFormats
import PhotoCore
import SystemKit

/// The assets of one catalog state kept beside the catalog in a flat file, so that a mount
/// reads them in one sequential pass instead of a million SQLite rows (the catalog read was
/// most of a mount of a large library, and with the catalog's pages not cached its random
/// page reads took many seconds).
///
/// The file is only a copy: it names the catalog's asset generation and schema version it
/// was made at (`Catalog.assetsGeneration`), and a reader that finds another generation, a
/// damaged or truncated file (every length is checked and the whole file is hashed), or a
/// value it does not know ignores it and reads the catalog. Apps and grants are never in
/// it: they are always read from the catalog.
///
/// Layout (host byte order; a cache of this machine): a header, the format and date-source
/// names, the camera texts, fixed-size asset records in the snapshot's order, the path
/// bytes, the problems of the few assets that have any, and a hash of everything before it.
enum SnapshotFile {
    static let magic: [UInt8] = Array("PFSSNAP1".utf8)
    static let formatVersion: UInt32 = 1
    /// Bytes per asset record (see `encode`).
    static let recordSize = 120

    /// The generation and schema version a file must name to be read.
    struct Stamp: Equatable, Sendable {
        let generation: Int64
        let schemaVersion: Int64
    }

    private enum Flag {
        static let hasExif: UInt8 = 1
        static let saysScreenshot: UInt8 = 2
        static let location: UInt8 = 4
        static let altitude: UInt8 = 8
        static let problems: UInt8 = 16
        static let captureDate: UInt8 = 32
    }

    // MARK: writing

    /// Writes the file for `assets` at `stamp` to `path`, whole or not at all (a new file
    /// renamed over the old one), readable by the owner only, in pieces of about a
    /// megabyte (the file of a million assets is about 170 MB: held whole, it would raise
    /// the daemon's peak memory by as much). Returns the file's hash (its last eight bytes,
    /// what the view tables file names), or nil, writing nothing, when an asset holds a
    /// value the layout cannot carry (mounts then read the catalog).
    @discardableResult
    static func write(_ assets: ChunkedArray<Asset>, stamp: Stamp, to path: String, stop: StopSignal? = nil) throws(SnapshotFileError)
        -> UInt64?
    {
        var formats: [String] = []
        var formatIndex: [MediaFormat: UInt8] = [:]
        var sources: [String] = []
        var sourceIndex: [DateSource: UInt8] = [:]
        var cameras: [CameraTexts] = []
        var cameraIndex: [ObjectIdentifier: UInt32] = [:]
        var pathBytes = 0
        var problems: [(UInt32, [String])] = []
        for (index, asset) in assets.enumerated() {
            if index & 0xFFFF == 0, stop?.isStopped == true { throw .stopped }
            let m = asset.metadata
            if formatIndex[m.format] == nil {
                formatIndex[m.format] = UInt8(truncatingIfNeeded: formats.count)
                formats.append(m.format.rawValue)
            }
            if sourceIndex[m.dateSource] == nil {
                sourceIndex[m.dateSource] = UInt8(truncatingIfNeeded: sources.count)
                sources.append(m.dateSource.rawValue)
            }
            if m.texts !== CameraTexts.none, cameraIndex[ObjectIdentifier(m.texts)] == nil {
                cameraIndex[ObjectIdentifier(m.texts)] = UInt32(cameras.count)
                cameras.append(m.texts)
            }
            if let offset = m.captureDate?.utcOffsetMinutes, Int32(exactly: offset) == nil || offset == Int(Int32.min) { return nil }
            if !m.problems.isEmpty { problems.append((UInt32(index), m.problems)) }
            pathBytes += asset.path.count
        }
        guard formats.count < 256, sources.count < 256, cameras.count < Int(UInt32.max), pathBytes < Int(UInt32.max) else {
            return nil
        }
        return try writeReplacing(path, stop: stop) { (out: inout StreamingOutput) in
            write(
                assets, stamp: stamp, formats: formats, formatIndex: formatIndex, sources: sources, sourceIndex: sourceIndex,
                cameras: cameras, cameraIndex: cameraIndex, pathBytes: pathBytes, problems: problems, to: &out)
        }
    }

    /// Writes a file to `path` whole or not at all: `body`'s bytes into a new file, readable
    /// by the owner only, with their hash after them, renamed over the old one. Returns the hash.
    /// When `stop` is set meanwhile, the writing ends at the next megabyte, the new file is
    /// removed and nothing is renamed (`SnapshotFileError.stopped`).
    static func writeReplacing(_ path: String, stop: StopSignal? = nil, _ body: (inout StreamingOutput) -> Void) throws(SnapshotFileError)
        -> UInt64
    {
        // A daemon that exited while its work after ready was still writing (it does not
        // wait long for that work) leaves its new file; nothing reads it, this write removes it.
        SystemKit.FileSystem.removeLeftovers(of: path, marker: ".new-")
        let file: ReplacementFile
        do throws(ReplacementFile.Failure) {
            file = try ReplacementFile(replacing: path, suffix: ".new-\(CurrentProcess.id)")
        } catch {
            throw .unwritable(path: error.path, errno: error.errno)
        }
        var out = StreamingOutput(fd: file.descriptor, stop: stop)
        body(&out)
        if out.abandoned {
            file.abandon()
            throw .stopped
        }
        let hash = out.hash.value
        out.put(hash)
        if let failure = out.finish() {
            file.abandon()
            throw .unwritable(path: file.temporaryPath, errno: failure)
        }
        do throws(ReplacementFile.Failure) {
            try file.commit()
        } catch {
            throw .unwritable(path: error.path, errno: error.errno)
        }
        return hash
    }

    /// The file's bytes before its hash.
    private static func write(
        _ assets: ChunkedArray<Asset>, stamp: Stamp, formats: [String], formatIndex: [MediaFormat: UInt8], sources: [String],
        sourceIndex: [DateSource: UInt8], cameras: [CameraTexts], cameraIndex: [ObjectIdentifier: UInt32], pathBytes: Int,
        problems: [(UInt32, [String])], to out: inout StreamingOutput
    ) {
        out.append(magic)
        out.put(formatVersion)
        out.put(UInt32(recordSize))
        out.put(stamp.generation)
        out.put(stamp.schemaVersion)
        out.put(UInt64(assets.count))
        out.putStrings(formats)
        out.putStrings(sources)
        out.put(UInt64(cameras.count))
        for texts in cameras {
            for text in [texts.make, texts.model, texts.lens, texts.software] { out.putOptionalString(text) }
        }
        var record = [UInt8](repeating: 0, count: recordSize)
        var pathOffset = 0
        for asset in assets {
            if out.abandoned { return }
            encode(
                asset, pathOffset: pathOffset, formatIndex: formatIndex, sourceIndex: sourceIndex, cameraIndex: cameraIndex, into: &record)
            out.append(record)
            pathOffset += asset.path.count
        }
        out.put(UInt64(pathBytes))
        for asset in assets {
            if out.abandoned { return }
            asset.path.withBytes { out.append($0) }
        }
        out.put(UInt64(problems.count))
        for (index, list) in problems {
            out.put(index)
            out.putStrings(list)
        }
    }

    /// One asset's record (the offsets `Tables.assets(in:)` reads).
    private static func encode(
        _ asset: Asset, pathOffset: Int, formatIndex: [MediaFormat: UInt8], sourceIndex: [DateSource: UInt8],
        cameraIndex: [ObjectIdentifier: UInt32], into record: inout [UInt8]
    ) {
        let m = asset.metadata
        var flags: UInt8 = 0
        if m.hasExif { flags |= Flag.hasExif }
        if m.saysScreenshot { flags |= Flag.saysScreenshot }
        let date = m.captureDate
        if date != nil { flags |= Flag.captureDate }
        let location = m.location
        if location != nil { flags |= Flag.location }
        if location?.altitude != nil { flags |= Flag.altitude }
        if !m.problems.isEmpty { flags |= Flag.problems }
        let camera = m.texts === CameraTexts.none ? UInt32.max : cameraIndex[ObjectIdentifier(m.texts)] ?? UInt32.max
        record.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: asset.id.number, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: asset.size, toByteOffset: 8, as: Int64.self)
            raw.storeBytes(of: asset.mtimeNanoseconds, toByteOffset: 16, as: Int64.self)
            raw.storeBytes(of: asset.inode, toByteOffset: 24, as: UInt64.self)
            raw.storeBytes(of: asset.ctimeNanoseconds, toByteOffset: 32, as: Int64.self)
            raw.storeBytes(of: date?.sortKey ?? -1, toByteOffset: 40, as: Int64.self)
            raw.storeBytes(of: location?.latitude ?? 0, toByteOffset: 48, as: Double.self)
            raw.storeBytes(of: location?.longitude ?? 0, toByteOffset: 56, as: Double.self)
            raw.storeBytes(of: location?.altitude ?? 0, toByteOffset: 64, as: Double.self)
            raw.storeBytes(of: Int64(m.width ?? Int(Int64.min)), toByteOffset: 72, as: Int64.self)
            raw.storeBytes(of: Int64(m.height ?? Int(Int64.min)), toByteOffset: 80, as: Int64.self)
            raw.storeBytes(of: Int64(m.orientation ?? Int(Int64.min)), toByteOffset: 88, as: Int64.self)
            let offset = date?.utcOffsetMinutes.map { Int32(truncatingIfNeeded: $0) } ?? Int32.min
            raw.storeBytes(of: offset, toByteOffset: 96, as: Int32.self)
            raw.storeBytes(of: camera, toByteOffset: 100, as: UInt32.self)
            raw.storeBytes(of: UInt32(pathOffset), toByteOffset: 104, as: UInt32.self)
            raw.storeBytes(of: UInt32(asset.path.count), toByteOffset: 108, as: UInt32.self)
            raw.storeBytes(of: m.locationSources.rawValue, toByteOffset: 112, as: UInt32.self)
            raw.storeBytes(of: formatIndex[m.format] ?? 0, toByteOffset: 116, as: UInt8.self)
            raw.storeBytes(of: sourceIndex[m.dateSource] ?? 0, toByteOffset: 117, as: UInt8.self)
            raw.storeBytes(of: flags, toByteOffset: 118, as: UInt8.self)
            raw.storeBytes(of: asset.withheld.rawValue, toByteOffset: 119, as: UInt8.self)
        }
    }

    // MARK: reading

    /// The assets of the file at `path` when it is whole and names `stamp`, with the file's
    /// hash; nil otherwise (missing, another generation, damaged: the caller reads the catalog).
    static func read(_ path: String, stamp: Stamp, splitUnit: Int = 1 << 16) -> (assets: ChunkedArray<Asset>, hash: UInt64)? {
        withOwnFile(path, minimumSize: 64) { raw in
            decode(raw, stamp: stamp, splitUnit: splitUnit).map { ($0, raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)) }
        }
    }

    /// `body`'s result for the bytes of the regular file at `path`, mapped and read ahead
    /// whole (one sequential pass, not a page fault at a time when it is not cached), when
    /// it is this user's and private to them (no permission for group or others, as written), and holds at least
    /// `minimumSize` bytes; nil otherwise.
    static func withOwnFile<R>(_ path: String, minimumSize: Int, _ body: (UnsafeRawBufferPointer) -> R?) -> R? {
        guard let fd = try? FileDescriptor.open(path, .readOnly) else { return nil }
        defer { fd.close() }
        guard let info = try? fd.status(), info.kind == .regular, info.size >= minimumSize, info.owner == CurrentProcess.realUserID,
            info.permissions & 0o077 == 0
        else { return nil }
        return fd.withMappedBytes(size: Int(info.size), body) ?? nil
    }

    /// The assets of a file's bytes when they are whole and name `stamp`, decoded in two
    /// halves split at a multiple of `splitUnit` (a multiple of the chunk size).
    static func decode(_ raw: UnsafeRawBufferPointer, stamp: Stamp, splitUnit: Int = 1 << 16) -> ChunkedArray<Asset>? {
        var cursor = Cursor(raw: raw, end: raw.count - 8)
        // The stamp first: a file of another generation is not hashed at all.
        guard raw.count >= 48, magic.withUnsafeBytes({ $0.elementsEqual(UnsafeRawBufferPointer(rebasing: raw[0..<8])) }) else { return nil }
        cursor.at = 8
        guard cursor.take(UInt32.self) == formatVersion, cursor.take(UInt32.self) == UInt32(recordSize),
            cursor.take(Int64.self) == stamp.generation, cursor.take(Int64.self) == stamp.schemaVersion,
            let count = cursor.take(UInt64.self).flatMap({ Int(exactly: $0) })
        else { return nil }
        guard
            raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
                == Self.hash(UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 8)]))
        else {
            return nil
        }
        guard let formatNames = cursor.takeStrings(), let sourceNames = cursor.takeStrings() else { return nil }
        var formats: [MediaFormat] = []
        for name in formatNames {
            guard let format = MediaFormat(rawValue: name) else { return nil }
            formats.append(format)
        }
        var sources: [DateSource] = []
        for name in sourceNames {
            guard let source = DateSource(rawValue: name) else { return nil }
            sources.append(source)
        }
        guard let cameraCount = cursor.take(UInt64.self).flatMap({ Int(exactly: $0) }), cameraCount <= raw.count else { return nil }
        var cameras: [CameraTexts] = []
        cameras.reserveCapacity(cameraCount)
        for _ in 0..<cameraCount {
            guard let make = cursor.takeOptionalString(), let model = cursor.takeOptionalString(),
                let lens = cursor.takeOptionalString(), let software = cursor.takeOptionalString()
            else { return nil }
            cameras.append(CameraTexts(make: make, model: model, lens: lens, software: software))
        }
        let recordsStart = cursor.at
        guard count <= raw.count / recordSize, cursor.skip(count * recordSize) else { return nil }
        guard let pathBytes = cursor.take(UInt64.self).flatMap({ Int(exactly: $0) }) else { return nil }
        let pathsStart = cursor.at
        guard cursor.skip(pathBytes) else { return nil }
        guard let problemCount = cursor.take(UInt64.self).flatMap({ Int(exactly: $0) }), problemCount <= count else { return nil }
        var problems: [Int: [String]] = [:]
        for _ in 0..<problemCount {
            guard let index = cursor.take(UInt32.self), Int(index) < count, let list = cursor.takeStrings() else { return nil }
            problems[Int(index)] = list
        }
        guard cursor.at == raw.count - 8 else { return nil }
        let tables = Tables(
            raw: raw, recordsStart: recordsStart, pathsStart: pathsStart, pathBytes: pathBytes, formats: formats, sources: sources,
            cameras: cameras, problems: problems)
        // Two halves on two threads, split at a multiple of 65,536 (of any chunk size up to
        // that) so that joining them keeps the order: `ChunkedArray(joining:)` keeps each
        // part's full chunks in place and appends only the parts' last, partial chunks.
        let chunk = splitUnit
        let middle = count < 2 * chunk ? count : (count / 2 + chunk - 1) / chunk * chunk
        let ranges = [0..<middle, middle..<count]
        let results = ResultSlots(count: ranges.count)
        DispatchQueue.concurrentPerform(iterations: ranges.count) { part in
            results.set(part, tables.assets(in: ranges[part]))
        }
        var parts: [ChunkedArray<Asset>] = []
        for part in ranges.indices {
            guard let assets = results.get(part) else { return nil }
            parts.append(assets)
        }
        return ChunkedArray(joining: parts)
    }

    static func hash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var hash = StreamHash()
        hash.feed(raw)
        return hash.value
    }

    /// What decoding a record needs, shared read-only by the decoding threads.
    private struct Tables: @unchecked Sendable {
        let raw: UnsafeRawBufferPointer
        let recordsStart: Int
        let pathsStart: Int
        let pathBytes: Int
        let formats: [MediaFormat]
        let sources: [DateSource]
        let cameras: [CameraTexts]
        let problems: [Int: [String]]

        func assets(in range: Range<Int>) -> ChunkedArray<Asset>? {
            var assets = ChunkedArray<Asset>()
            assets.reserveCapacity(range.count)
            var arena = PathArena()
            for index in range {
                let at = recordsStart + index * SnapshotFile.recordSize
                func load<T>(_ offset: Int, _: T.Type) -> T { raw.loadUnaligned(fromByteOffset: at + offset, as: T.self) }
                let pathOffset = Int(load(104, UInt32.self))
                let pathCount = Int(load(108, UInt32.self))
                let formatIndex = Int(load(116, UInt8.self))
                let sourceIndex = Int(load(117, UInt8.self))
                let flags = load(118, UInt8.self)
                let camera = load(100, UInt32.self)
                guard let id = AssetID(number: load(0, UInt64.self)), pathOffset + pathCount <= pathBytes, formatIndex < formats.count,
                    sourceIndex < sources.count, camera == UInt32.max || Int(camera) < cameras.count
                else { return nil }
                func optional(_ offset: Int) -> Int? {
                    let value = load(offset, Int64.self)
                    return value == Int64.min ? nil : Int(truncatingIfNeeded: value)
                }
                let utcOffset = load(96, Int32.self)
                let captureDate =
                    flags & Flag.captureDate == 0
                    ? nil : CaptureDate(sortKey: load(40, Int64.self), utcOffsetMinutes: utcOffset == Int32.min ? nil : Int(utcOffset))
                var location: GeoLocation?
                if flags & Flag.location != 0 {
                    location = GeoLocation(
                        latitude: load(48, Double.self), longitude: load(56, Double.self),
                        altitude: flags & Flag.altitude != 0 ? load(64, Double.self) : nil)
                }
                var metadata = MediaMetadata(
                    format: formats[formatIndex], captureDate: captureDate, dateSource: sources[sourceIndex], orientation: optional(88),
                    width: optional(72), height: optional(80), location: location,
                    locationSources: LocationSources(rawValue: load(112, UInt32.self)), hasExif: flags & Flag.hasExif != 0,
                    saysScreenshot: flags & Flag.saysScreenshot != 0, problems: flags & Flag.problems != 0 ? problems[index] ?? [] : [])
                if camera != UInt32.max { metadata.texts = cameras[Int(camera)] }
                let path = arena.path(
                    UnsafeBufferPointer(
                        start: (raw.baseAddress! + pathsStart + pathOffset).assumingMemoryBound(to: UInt8.self), count: pathCount))
                assets.append(
                    Asset(
                        id: id, path: path, size: load(8, Int64.self), mtimeNanoseconds: load(16, Int64.self), inode: load(24, UInt64.self),
                        ctimeNanoseconds: load(32, Int64.self), metadata: metadata,
                        withheld: WithheldPlans(rawValue: load(119, UInt8.self))))
            }
            return assets
        }
    }

    /// One result per part of a decode, set by the part's thread.
    private final class ResultSlots: @unchecked Sendable {
        private var slots: [ChunkedArray<Asset>??]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        // Each part writes only its own slot, and reads happen after `concurrentPerform` returned.
        func set(_ part: Int, _ value: ChunkedArray<Asset>?) { slots[part] = .some(value) }
        func get(_ part: Int) -> ChunkedArray<Asset>? { slots[part] ?? nil }
    }

}

/// A 64-bit hash of a byte stream, eight bytes a step, fed in pieces of any length (a
/// damaged file must not be believed, and hashing 170 MB a byte at a time would cost more
/// than the catalog read it replaces).
struct StreamHash {
    private var state: UInt64 = 0x9e37_79b9_7f4a_7c15
    private var pending: UInt64 = 0
    private var pendingCount = 0

    mutating func feed(_ raw: UnsafeRawBufferPointer) {
        var at = 0
        while pendingCount != 0, at < raw.count {
            pending |= UInt64(raw[at]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            at += 1
            if pendingCount == 8 {
                mix(pending)
                pending = 0
                pendingCount = 0
            }
        }
        while at + 8 <= raw.count {
            mix(raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            at += 8
        }
        while at < raw.count {
            pending |= UInt64(raw[at]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            at += 1
        }
    }

    private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x1000_0000_01b3 &+ 0x632b_e59b_d9b4_e019
        state ^= state >> 29
    }

    var value: UInt64 {
        var copy = self
        copy.mix(pending ^ UInt64(pendingCount) << 56)
        return copy.state ^ (copy.state >> 32)
    }
}

/// Why a snapshot file could not be written (the mount goes on; the next one reads the catalog).
public enum SnapshotFileError: Error, Sendable, CustomStringConvertible {
    case unwritable(path: String, errno: Errno)
    /// The daemon asked the writing to stop (it is exiting); nothing was left behind.
    case stopped

    public var description: String {
        switch self {
        case .unwritable(let path, let code): "cannot write \(path): \(code)"
        case .stopped: "stopped before it was done (the daemon is exiting)"
        }
    }
}

/// A snapshot or view tables file as it is written: bytes gathered into about a megabyte,
/// then written out, hashed on the way; the first write error is kept and the rest skipped.
struct StreamingOutput {
    let fd: FileDescriptor
    var hash = StreamHash()
    private var buffer: [UInt8] = []
    private var failure: Errno?
    private let stop: StopSignal?
    /// Whether `stop` was found set: nothing more is written, and the caller throws the
    /// file away.
    private(set) var abandoned = false

    init(fd: FileDescriptor, stop: StopSignal? = nil) {
        self.fd = fd
        self.stop = stop
        buffer.reserveCapacity(1 << 20 + 4096)
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !abandoned else { return }
        hash.feed(UnsafeRawBufferPointer(bytes))
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { flush() }
    }

    mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value) { append($0.bindMemory(to: UInt8.self)) }
    }

    mutating func putOptionalString(_ text: String?) {
        guard let text else {
            put(UInt32.max)
            return
        }
        put(UInt32(text.utf8.count))
        append(Array(text.utf8))
    }

    mutating func putStrings(_ texts: [String]) {
        put(UInt32(texts.count))
        for text in texts { putOptionalString(text) }
    }

    /// Writes what is gathered (it was hashed as it was gathered).
    private mutating func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        if stop?.isStopped == true { abandoned = true }
        guard failure == nil, !abandoned else { return }
        buffer.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                do throws(Errno) {
                    written += try fd.write(UnsafeRawBufferPointer(rebasing: raw[written...]))
                } catch {
                    failure = error
                    return
                }
            }
        }
    }

    /// Writes the rest; the first error's errno, if any.
    mutating func finish() -> Errno? {
        flush()
        return failure
    }
}

/// Reads a snapshot file's sections, every length checked against the end.
private struct Cursor {
    let raw: UnsafeRawBufferPointer
    let end: Int
    var at = 0

    mutating func take<T: FixedWidthInteger>(_: T.Type) -> T? {
        guard at + MemoryLayout<T>.size <= end else { return nil }
        defer { at += MemoryLayout<T>.size }
        return raw.loadUnaligned(fromByteOffset: at, as: T.self)
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= end - at else { return false }
        at += count
        return true
    }

    /// A string, or `.some(nil)` for an absent one; nil when the bytes run out.
    mutating func takeOptionalString() -> String?? {
        guard let count = take(UInt32.self) else { return nil }
        if count == UInt32.max { return .some(nil) }
        let start = at
        guard skip(Int(count)) else { return nil }
        return .some(String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<at]), as: UTF8.self))
    }

    mutating func takeStrings() -> [String]? {
        guard let count = take(UInt32.self), Int(count) <= end - at else { return nil }
        var texts: [String] = []
        for _ in 0..<count {
            guard let text = takeOptionalString(), let text else { return nil }
            texts.append(text)
        }
        return texts
    }
}
