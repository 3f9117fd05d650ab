/// The plans that serve a file to apps with `--metadata private`, one per location policy,
/// kept in their compact binary form (`RedactionPlan.encode`): a blanked maker note is a
/// run of one byte, stored in a few bytes instead of tens of kilobytes per asset. The read
/// path overlays a plan straight from this form (`PatchOverlay.apply(encoded:...)`).
///
///     encoded := version(1) entry(keep) entry(strip) entry(coarse)     (empty: not planned)
///     entry   := plan | 2   (2: the same plan as the entry before; files without a location
///                            have one plan for all three, stored once)
public struct PrivatePlans: Hashable, Sendable {
    /// The binary form; empty until the file is planned (every private view withheld).
    public let encoded: [UInt8]

    /// Until a plan is computed nothing may be served to a private view.
    public static let notPlanned = PrivatePlans(validated: [])

    /// The format version of `encoded`.
    static let encodingVersion: UInt8 = 1
    /// The entry that repeats the plan before it.
    static let samePlan: UInt8 = 2

    public init(keep: RedactionPlan, strip: RedactionPlan, coarse: RedactionPlan) {
        var out: [UInt8] = [Self.encodingVersion]
        keep.encode(into: &out)
        if strip == keep { out.append(Self.samePlan) } else { strip.encode(into: &out) }
        if coarse == strip { out.append(Self.samePlan) } else { coarse.encode(into: &out) }
        encoded = out
    }

    /// Checks and keeps what `encoded` holds (an empty array: not planned).
    public init(encoded bytes: [UInt8]) throws(RedactionPlanDecodingError) {
        if !bytes.isEmpty {
            var reader = PlanReader(bytes: bytes)
            let version = try reader.byte()
            guard version == Self.encodingVersion else { throw .unsupportedVersion(version) }
            try RedactionPlan.check(&reader)
            for _ in 0..<2 {
                if reader.remaining > 0, bytes[reader.position] == Self.samePlan {
                    reader.position += 1
                } else {
                    try RedactionPlan.check(&reader)
                }
            }
            guard reader.isAtEnd else { throw .trailingBytes(at: reader.position) }
        }
        encoded = bytes
    }

    private init(validated bytes: [UInt8]) { encoded = bytes }

    /// Whether a private app with location policy `policy` is refused the file, read from
    /// an encoding without decoding or checking its plans (the catalog's snapshot needs
    /// only this, a million times; the read path decodes the plan it serves). An encoding
    /// that does not read, or an empty one, withholds the file.
    public static func isWithheld(for policy: LocationPolicy, encoded bytes: [UInt8]) -> Bool {
        guard bytes.first == encodingVersion else { return true }
        return PrivatePlans(validated: bytes).isWithheld(for: policy)
    }

    /// The same plan for every location policy (a file withheld from every private app).
    static func all(_ plan: RedactionPlan) -> PrivatePlans { PrivatePlans(keep: plan, strip: plan, coarse: plan) }

    /// The plan for a private app with location policy `policy`.
    public func plan(for policy: LocationPolicy) -> RedactionPlan {
        guard let range = range(of: policy) else { return .withheld(reason: "not analysed yet") }
        var reader = PlanReader(bytes: Array(encoded[range]))
        return (try? RedactionPlan(from: &reader)) ?? .withheld(reason: "undecodable plan")
    }

    /// Whether a private app with location policy `policy` is refused the file; cheap.
    public func isWithheld(for policy: LocationPolicy) -> Bool {
        guard let range = range(of: policy) else { return true }
        return encoded[range.lowerBound] != 0
    }

    /// Overlays the plan for `policy` onto a read of `[fileOffset, fileOffset + buffer.count)`
    /// without decoding it; false, leaving the buffer alone, when the plan withholds the file.
    public func apply(for policy: LocationPolicy, to buffer: UnsafeMutableRawBufferPointer, at fileOffset: Int64) -> Bool {
        guard let range = range(of: policy), encoded[range.lowerBound] == 0 else { return false }
        return PatchOverlay.apply(encoded: encoded, from: range.lowerBound + 1, to: buffer, at: fileOffset)
    }

    /// The bytes of one plan inside `encoded`.
    private func range(of policy: LocationPolicy) -> Range<Int>? {
        guard !encoded.isEmpty else { return nil }
        let index =
            switch policy {
            case .keep: 0
            case .strip: 1
            case .coarse: 2
            }
        var reader = PlanReader(bytes: encoded)
        reader.position = 1
        var current: Range<Int>?
        do {
            for _ in 0...index {
                let start = reader.position
                if reader.remaining > 0, encoded[start] == Self.samePlan, current != nil {
                    reader.position += 1
                    continue
                }
                try reader.skipPlan()
                current = start..<reader.position
            }
            return current
        } catch {
            return nil
        }
    }
}

extension PlanReader {
    /// Moves past one encoded plan without building it.
    mutating func skipPlan() throws(RedactionPlanDecodingError) {
        switch try byte() {
        case 0:
            var remaining = try varint()
            while remaining > 0 {
                remaining -= 1
                _ = try varint()
                let length = try varint()
                switch try byte() {
                case 0:
                    guard length <= UInt64(self.remaining) else { throw .truncated }
                    position += Int(length)
                case 1: _ = try byte()
                default: throw .malformedPatch(at: position)
                }
            }
        case 1:
            let length = try varint()
            guard length <= UInt64(remaining) else { throw .truncated }
            position += Int(length)
        case let tag:
            throw .unknownPlanKind(tag)
        }
    }
}

extension PatchOverlay {
    /// Overlays the patches of an encoded `.patches` plan whose patch count starts at
    /// `start` in `encoded` (already validated) onto `buffer`, which holds the file's bytes
    /// `[fileOffset, fileOffset + buffer.count)`. Walks the encoding once and allocates
    /// nothing. False when the encoding does not read (nothing served).
    static func apply(encoded: [UInt8], from start: Int, to buffer: UnsafeMutableRawBufferPointer, at fileOffset: Int64) -> Bool {
        guard fileOffset >= 0 else { return false }
        var reader = PlanReader(bytes: encoded)
        reader.position = start
        let readEnd = fileOffset + Int64(buffer.count)
        do {
            var remaining = try reader.varint()
            var previousEnd: Int64 = 0
            while remaining > 0 {
                remaining -= 1
                let offset = previousEnd + Int64(try reader.varint())
                let length = Int64(try reader.varint())
                let mode = try reader.byte()
                let end = offset + length
                let (from, to) = (max(offset, fileOffset), min(end, readEnd))
                switch mode {
                case 0:
                    guard length <= Int64(reader.remaining) else { return false }
                    if from < to, let base = buffer.baseAddress {
                        encoded.withUnsafeBytes { bytes in
                            (base + Int(from - fileOffset)).copyMemory(
                                from: bytes.baseAddress! + reader.position + Int(from - offset), byteCount: Int(to - from))
                        }
                    }
                    reader.position += Int(length)
                default:
                    let fill = try reader.byte()
                    if from < to, let base = buffer.baseAddress {
                        (base + Int(from - fileOffset)).initializeMemory(as: UInt8.self, repeating: fill, count: Int(to - from))
                    }
                }
                previousEnd = end
                if offset >= readEnd { break }
            }
            return true
        } catch {
            return false
        }
    }
}
