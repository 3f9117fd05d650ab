/// Plans the patches that remove (or, under `coarse`, round) the GPS track a GoPro video
/// keeps in the samples of its GPMF timed-metadata track (`gpmd`), as walked by
/// `GPMFWalker`. Every patch keeps the sample's size and structure.
///
/// - `strip`: in every stream holding a location item (`GPS5`, `GPS9`, `GPSU`, `GPSF`,
///   `GPSP`, `GPSA`, any `GPS?`, `GLPI`, `GPRI`) every item is renamed `FREE`, a key neither
///   exiftool nor GoPro's parser reads, and its data becomes zeros: the stream's name, units
///   and scales go with the positions, and the type, size and repeat fields stay as they
///   were, so every reader still walks the sample to its end.
/// - `coarse`: `GPS5` and `GPS9` positions (signed 32-bit latitude and longitude divided by
///   the stream's `SCAL`) are rounded to 0.01° and their altitude set to zero; the fix,
///   precision and time items stay; `GLPI`, `GPRI` and unknown `GPS?` items are removed as
///   under `strip`. A position that cannot be rounded with certainty (no usable `SCAL`, a
///   structure whose first fields are not 32-bit integers) withholds the file from coarse views.
///
/// A sample the walker cannot read with certainty withholds the file from both.
struct GPMFLocationRedactor {
    enum Outcome: Equatable {
        case noLocation
        case redacted
        case uncertain(reason: String)
    }

    /// The key located items are renamed to.
    static let freeKey = Array("FREE".utf8)
    /// The most bytes of GPMF samples read for one file (a GoPro writes a few KB a second).
    static let maxTrackBytes: Int64 = 64 << 20

    /// The walked samples of one track: each sample's range and its streams.
    struct Track {
        /// Each sample's range and streams; `bytes` are kept only for samples with a located stream.
        var samples: [(range: ByteRange, bytes: [UInt8], streams: [GPMFWalker.Stream])]

        var isLocated: Bool { samples.contains { $0.streams.contains(where: \.isLocated) } }
    }

    /// Reads and walks every sample; a reason when one cannot be read with certainty.
    static func scan(_ samples: [ByteRange], source: some ByteSource) throws(ByteSourceError) -> Result<Track, Failure> {
        var track = Track(samples: [])
        var total: Int64 = 0
        for range in samples where range.length > 0 {
            total += range.length
            guard range.length <= Int64(SourceReader.maxRead), total <= maxTrackBytes else {
                return .failure(Failure(reason: "the GPMF track is larger than photofs reads"))
            }
            let bytes = try RedactionPlanner.read(range, from: source)
            switch GPMFWalker.walk(bytes) {
            case .uncertain(let why): return .failure(Failure(reason: "GPMF sample at \(range.offset): \(why)"))
            case .streams(let streams): track.samples.append((range, streams.contains(where: \.isLocated) ? bytes : [], streams))
            }
        }
        return .success(track)
    }

    /// Why a track could not be walked.
    struct Failure: Error, Equatable {
        var reason: String
    }

    let coarse: Bool

    func plan(_ track: Track, into patches: inout PatchList) -> Outcome {
        var found = false
        for sample in track.samples {
            let base = sample.range.offset
            for stream in sample.streams where stream.isLocated {
                found = true
                for (index, item) in stream.items.enumerated() {
                    if coarse {
                        if item.key == fourCCValue("GPS5") || item.key == fourCCValue("GPS9") {
                            guard let rewrite = Self.rounded(item, in: stream, before: index, bytes: sample.bytes) else {
                                return .uncertain(reason: "GPMF position at \(base + Int64(item.offset)) cannot be rounded with certainty")
                            }
                            patches.add(at: base + Int64(item.data.lowerBound), rewrite)
                            continue
                        }
                        let kept = ["GPSU", "GPSF", "GPSP", "GPSA"].map(fourCCValue)
                        guard item.isLocation, !kept.contains(item.key) else { continue }
                    }
                    patches.add(at: base + Int64(item.offset), Self.freeKey)
                    patches.fill(ByteRange(offset: base + Int64(item.data.lowerBound), length: Int64(item.data.count)), with: 0)
                }
            }
        }
        return found ? .redacted : .noLocation
    }

    /// The data of a `GPS5`/`GPS9` item with every position rounded to 0.01° and the
    /// altitude zeroed; nil when the item's layout or scale is not certain.
    static func rounded(_ item: GPMFWalker.Item, in stream: GPMFWalker.Stream, before index: Int, bytes: [UInt8]) -> [UInt8]? {
        let view = ByteView(bytes)
        let earlier = stream.items[..<index]
        if item.type == UInt8(ascii: "?") {
            // A structure: its field types come from the stream's last TYPE before it.
            guard let type = earlier.last(where: { $0.key == fourCCValue("TYPE") }), view.matches("lll", at: type.data.lowerBound)
            else { return nil }
        } else if item.type != UInt8(ascii: "l") {
            return nil
        }
        guard item.structSize >= 12, let scaleItem = earlier.last(where: { $0.key == fourCCValue("SCAL") }) else { return nil }
        // SCAL: one divisor for every field, or one per field.
        let width: Int
        switch scaleItem.type {
        case UInt8(ascii: "l"), UInt8(ascii: "L"): width = 4
        case UInt8(ascii: "s"), UInt8(ascii: "S"): width = 2
        default: return nil
        }
        let signed = scaleItem.type == UInt8(ascii: "l") || scaleItem.type == UInt8(ascii: "s")
        var scales: [Double] = []
        var at = scaleItem.data.lowerBound
        while at + width <= scaleItem.data.upperBound {
            guard let raw = width == 4 ? view.u32(at) : view.u16(at).map(UInt32.init) else { return nil }
            let value = signed ? (width == 4 ? Double(Int32(bitPattern: raw)) : Double(Int16(truncatingIfNeeded: raw))) : Double(raw)
            scales.append(value)
            at += width
        }
        guard !scales.isEmpty, scales.prefix(2).allSatisfy({ $0 > 0 }) else { return nil }
        let latitudeScale = scales[0]
        let longitudeScale = scales.count == 1 ? scales[0] : scales[1]
        guard var data = view.slice(item.data.lowerBound, item.data.count).map(Array.init) else { return nil }
        func int32(_ offset: Int) -> Int32 {
            Int32(
                bitPattern: UInt32(data[offset]) << 24 | UInt32(data[offset + 1]) << 16 | UInt32(data[offset + 2]) << 8
                    | UInt32(data[offset + 3]))
        }
        func set(_ offset: Int, _ value: Int32) {
            let raw = UInt32(bitPattern: value)
            for i in 0..<4 { data[offset + i] = UInt8(truncatingIfNeeded: raw >> UInt32(24 - 8 * i)) }
        }
        func round(_ raw: Int32, _ scale: Double) -> Int32? {
            let degrees = Double(raw) / scale
            guard degrees.isFinite, abs(degrees) <= 180 else { return nil }
            let value = ((degrees * 100).rounded() / 100 * scale).rounded()
            guard value.isFinite, value >= Double(Int32.min), value <= Double(Int32.max) else { return nil }
            return Int32(value)
        }
        for record in 0..<item.repeatCount {
            let offset = record * item.structSize
            guard let latitude = round(int32(offset), latitudeScale), let longitude = round(int32(offset + 4), longitudeScale) else {
                return nil
            }
            set(offset, latitude)
            set(offset + 4, longitude)
            set(offset + 8, 0)
        }
        return data
    }
}
