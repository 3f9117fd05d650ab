/// Plans the patches that remove place names from IPTC-IIM data kept in Photoshop image
/// resources (JPEG APP13, TIFF tag 34377) or on its own (TIFF tag 33723): the datasets 2:26 Content Location Code, 2:27 Content Location
/// Name, 2:90 City, 2:92 Sub-location, 2:95 Province-State, 2:100 Country Code and 2:101
/// Country. Used the same way under `strip` and `coarse` (a place name is not a
/// coordinate that can be rounded).
///
/// Each such dataset keeps its size: its value becomes spaces and its dataset number
/// becomes 254, which IIM does not define, so readers skip it as they skip any unknown
/// dataset (a value of spaces alone would still be listed as an empty City).
///
/// Fails closed: when the resource chain cannot be walked to its end, the whole block
/// becomes one anonymous resource of zeros (still a valid chain); when the IPTC data in
/// resource 0x0404 cannot be walked, that resource's id becomes 0 (no known resource) and
/// its data zeros, and so does the id of the IPTC digest resource (0x0425). Otherwise a
/// digest that matched the original IPTC data is rewritten to match the redacted data
/// (a stale digest makes readers warn that the IPTC was changed behind their back).
struct IPTCLocationRedactor {
    /// What planning one block came to.
    enum Outcome: Equatable {
        case noLocation
        /// Location datasets renamed and blanked.
        case redacted(datasets: Int)
        /// The block or its IPTC data could not be walked with certainty and was blanked.
        case blanked(reason: String)
        /// The block is too large to read (a hostile TIFF tag count): the file must be withheld.
        case uncertain(reason: String)
    }

    /// The datasets removed: `locationDatasets`, and under `--metadata private` also
    /// `IdentityTags.iptcDatasets` (without the location ones when location is kept).
    var datasets: Set<UInt8> = IPTCLocationRedactor.locationDatasets
    /// The envelope record (1) datasets removed (`IdentityTags.iptcEnvelopeDatasets` under
    /// `--metadata private`).
    var envelopeDatasets: Set<UInt8> = []
    /// Whether Photoshop resources outside `IdentityTags.photoshopResources` get id 0 and
    /// zero data (`--metadata private`).
    var blankingOtherResources = false

    /// The largest block read; IPTC and resource blocks are kilobytes (APP13 holds 64 KiB).
    static let maxBlock = Int64(SourceReader.maxRead)

    /// The IIM application record (2) datasets that name a place.
    static let locationDatasets: Set<UInt8> = [26, 27, 90, 92, 95, 100, 101]
    /// The dataset number a removed dataset gets: not defined by IIM 4.2.
    static let unusedDataset: UInt8 = 254
    /// Resource signatures found in the wild (Photoshop writes `8BIM`).
    static let signatures: [[UInt8]] = ["8BIM", "PHUT", "AgHg", "DCSR", "MeSa"].map { Array($0.utf8) }
    static let iptcResource: UInt16 = 0x0404
    /// The resource holding the MD5 of the IPTC resource's data.
    static let digestResource: UInt16 = 0x0425
    /// The most resources read from one block; real files have a few dozen.
    static let maxResources = 4096

    /// One resource of the chain: its id's offset and its data.
    struct Resource {
        var idOffset: Int64
        var id: UInt16
        var data: ByteRange
    }

    /// Plans the patches for the resource block `block` into `patches`.
    func plan(_ block: ByteRange, source: some ByteSource, into patches: inout PatchList) throws(ByteSourceError) -> Outcome {
        guard block.length > 0 else { return .noLocation }
        guard block.length <= Self.maxBlock else {
            return .uncertain(reason: "Photoshop resources at \(block.offset) are too large to read")
        }
        let bytes = try RedactionPlanner.read(block, from: source)
        guard let resources = Self.resources(in: bytes, at: block.offset) else {
            blank(block, into: &patches)
            return .blanked(reason: "Photoshop resources at \(block.offset) cannot be walked with certainty")
        }
        var blankedOthers = 0
        for resource in resources where blankingOtherResources && !IdentityTags.photoshopResources.contains(resource.id) {
            patches.add(at: resource.idOffset, [0, 0])
            patches.fill(resource.data, with: 0)
            blankedOthers += 1
        }
        let iptcResources = resources.filter { $0.id == Self.iptcResource }
        let digest = resources.first { $0.id == Self.digestResource && $0.data.length == Int64(MD5.digestSize) }
        var count = 0
        for resource in iptcResources {
            let start = Int(resource.data.offset - block.offset)
            let data = bytes[start..<(start + Int(resource.data.length))]
            guard let found = Self.locationDatasets(in: data, numbers: datasets, envelope: envelopeDatasets) else {
                patches.add(at: resource.idOffset, [0, 0])
                patches.fill(resource.data, with: 0)
                // No IPTC is left for the digest to describe.
                if let digest { patches.add(at: digest.idOffset, [0, 0]) }
                return .blanked(reason: "IPTC data at \(resource.data.offset) cannot be walked with certainty")
            }
            remove(found, base: block.offset, into: &patches)
            var redacted = Array(data)
            for dataset in found {
                redacted[dataset.numberIndex - start] = Self.unusedDataset
                redacted.replaceSubrange(
                    (dataset.value.lowerBound - start)..<(dataset.value.upperBound - start),
                    with: repeatElement(0x20, count: dataset.value.count))
            }
            count += found.count
            // The digest is the MD5 of the one IPTC resource's data: rewritten when it
            // matched the original (a stale one stays stale, as the original had it).
            if !found.isEmpty, iptcResources.count == 1, let digest {
                let digestStart = Int(digest.data.offset - block.offset)
                if bytes[digestStart..<(digestStart + MD5.digestSize)].elementsEqual(MD5.hash(Array(data))) {
                    patches.add(at: digest.data.offset, MD5.hash(redacted))
                }
            }
        }
        return count + blankedOthers > 0 ? .redacted(datasets: count + blankedOthers) : .noLocation
    }

    /// Plans the patches for raw IPTC-IIM data (a TIFF's IPTC-NAA tag) at `range`; data
    /// that does not walk becomes zeros (fail closed).
    func planIPTC(_ range: ByteRange, source: some ByteSource, into patches: inout PatchList) throws(ByteSourceError) -> Outcome {
        guard range.length > 0 else { return .noLocation }
        guard range.length <= Self.maxBlock else { return .uncertain(reason: "IPTC data at \(range.offset) is too large to read") }
        let bytes = try RedactionPlanner.read(range, from: source)
        guard let found = Self.locationDatasets(in: bytes[...], numbers: datasets, envelope: envelopeDatasets) else {
            patches.fill(range, with: 0)
            return .blanked(reason: "IPTC data at \(range.offset) cannot be walked with certainty")
        }
        remove(found, base: range.offset, into: &patches)
        return found.isEmpty ? .noLocation : .redacted(datasets: found.count)
    }

    /// Plans the patches for IPTC-IIM records embedded in other data, such as a maker note
    /// (Nikon Capture keeps a copy of the IPTC in one): every run of datasets starting with
    /// ApplicationRecordVersion (`1C 02 00 00 02`) is walked as far as its datasets reach.
    func planEmbedded(_ range: ByteRange, source: some ByteSource, into patches: inout PatchList) throws(ByteSourceError) -> Outcome {
        guard range.length > 0 else { return .noLocation }
        guard range.length <= Self.maxBlock else { return .uncertain(reason: "maker note at \(range.offset) is too large to read") }
        let bytes = try RedactionPlanner.read(range, from: source)
        let found = Self.embeddedLocationDatasets(in: bytes, numbers: datasets)
        remove(found, base: range.offset, into: &patches)
        return found.isEmpty ? .noLocation : .redacted(datasets: found.count)
    }

    /// The location datasets of every IPTC record run found inside `bytes`.
    static func embeddedLocationDatasets(in bytes: [UInt8], numbers: Set<UInt8> = locationDatasets) -> [Dataset] {
        let start: [UInt8] = [0x1C, 0x02, 0x00, 0x00, 0x02]
        var found: [Dataset] = []
        var index = 0
        while index <= bytes.count - start.count {
            guard bytes[index] == 0x1C, bytes[index..<(index + start.count)].elementsEqual(start) else {
                index += 1
                continue
            }
            // Walk datasets while they are well formed; the run ends at the first that is not.
            var position = index
            while position <= bytes.count - 5, bytes[position] == 0x1C {
                let short = Int(bytes[position + 3]) << 8 | Int(bytes[position + 4])
                guard short & 0x8000 == 0, short <= bytes.count - position - 5 else { break }
                if bytes[position + 1] == 2, numbers.contains(bytes[position + 2]) {
                    found.append(Dataset(numberIndex: position + 2, value: (position + 5)..<(position + 5 + short)))
                }
                position += 5 + short
            }
            index = max(position, index + 1)
        }
        return found
    }

    /// Renames and blanks `found`, whose indices count from the file offset `base`.
    private func remove(_ found: [Dataset], base: Int64, into patches: inout PatchList) {
        for dataset in found {
            patches.add(at: base + Int64(dataset.numberIndex), [Self.unusedDataset])
            patches.fill(ByteRange(offset: base + Int64(dataset.value.lowerBound), length: Int64(dataset.value.count)), with: 0x20)
        }
    }

    /// The resources of a block, or nil when the chain does not walk cleanly to its end
    /// (zero bytes of padding after the last resource are allowed).
    static func resources(in bytes: [UInt8], at offset: Int64) -> [Resource]? {
        let view = ByteView(bytes)
        var resources: [Resource] = []
        var position = 0
        while position < bytes.count {
            if bytes[position...].allSatisfy({ $0 == 0 }) { break }
            guard resources.count < maxResources, position <= bytes.count - 4,
                signatures.contains(where: { bytes[position..<(position + 4)].elementsEqual($0) }),
                let id = view.u16(position + 4), let nameLength = view.u8(position + 6)
            else { return nil }
            // A Pascal name: its length byte and text, padded to an even size.
            var cursor = position + 6 + 1 + Int(nameLength)
            if (1 + Int(nameLength)) % 2 == 1 { cursor += 1 }
            guard let size32 = view.u32(cursor) else { return nil }
            let size = Int(size32)
            let dataStart = cursor + 4
            guard size <= bytes.count - dataStart else { return nil }
            resources.append(
                Resource(
                    idOffset: offset + Int64(position + 4), id: id, data: ByteRange(offset: offset + Int64(dataStart), length: Int64(size)))
            )
            // Data is padded to an even size; a missing last pad byte is tolerated.
            position = min(bytes.count, dataStart + size + size % 2)
        }
        return resources
    }

    /// One location dataset: where its dataset number and its value are (indices into
    /// the bytes given to `locationDatasets`).
    struct Dataset: Equatable {
        var numberIndex: Int
        var value: Range<Int>
    }

    /// The location datasets of IPTC-IIM data, or nil when the data does not walk cleanly
    /// (zero padding after the last dataset is allowed).
    static func locationDatasets(in data: ArraySlice<UInt8>, numbers: Set<UInt8> = locationDatasets, envelope: Set<UInt8> = [])
        -> [Dataset]?
    {
        var found: [Dataset] = []
        var position = data.startIndex
        while position < data.endIndex {
            if data[position] == 0, data[position...].allSatisfy({ $0 == 0 }) { break }
            // Tag marker 0x1C, record, dataset, then a 16-bit length; with its top bit set,
            // the low 15 bits count the bytes of the real length that follow (extended).
            guard data[position] == 0x1C, position <= data.endIndex - 5 else { return nil }
            let record = data[position + 1]
            let number = data[position + 2]
            let short = Int(data[position + 3]) << 8 | Int(data[position + 4])
            var valueStart = position + 5
            var length = short
            if short & 0x8000 != 0 {
                let digits = short & 0x7FFF
                guard (1...4).contains(digits), digits <= data.endIndex - valueStart else { return nil }
                length = data[valueStart..<(valueStart + digits)].reduce(0) { $0 << 8 | Int($1) }
                valueStart += digits
            }
            guard length <= data.endIndex - valueStart else { return nil }
            if (record == 2 && numbers.contains(number)) || (record == 1 && envelope.contains(number)) {
                found.append(Dataset(numberIndex: position + 2, value: valueStart..<(valueStart + length)))
            }
            position = valueStart + length
        }
        return found
    }

    /// Replaces the block with one anonymous resource (`8BIM`, id 0, no name) whose data
    /// is zeros up to the block's end, or with zeros when the block is too short to hold one.
    func blank(_ block: ByteRange, into patches: inout PatchList) {
        patches.fill(block, with: 0)
        guard block.length >= 12 else { return }
        // Data of even size; an odd block keeps one zero byte of padding at its end.
        let size = (block.length - 12) & ~1
        guard size <= Int64(UInt32.max) else { return }
        let header = Array("8BIM".utf8) + [0, 0, 0, 0] + TIFFByteOrder.bigEndian.bytes(of: UInt32(size))
        patches.add(at: block.offset, header)
    }
}
