/// A compact binary form of redaction plans, for the catalog to store as a BLOB.
///
/// Layout (all integers unsigned LEB128 varints):
///
///     plans  := version(1) plan(strip) plan(coarse)
///     plan   := 0 count patch*        (patches)
///             | 1 length utf8-bytes   (withheld, with its reason)
///     patch  := gap length mode body
///     gap    := offset − end of the previous patch (0 before the first); ≥ 1 after the first
///     mode   := 0 literal: `length` bytes follow
///             | 1 fill: one byte follows, repeated `length` times (zeroed IFDs, blanked blocks)
///
/// Decoding rejects anything the encoder would not produce: unknown version or tags,
/// truncation, trailing bytes, varints longer than 10 bytes or overflowing, empty or
/// touching patches, offsets past `Int64.max`, invalid UTF-8, and totals past the limits.
extension RedactionPlans {
    /// The format version written by `encoded()`.
    static let encodingVersion: UInt8 = 1

    /// The binary form.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [Self.encodingVersion]
        strip.encode(into: &out)
        coarse.encode(into: &out)
        return out
    }

    /// Decodes what `encoded()` wrote.
    public init(encoded bytes: [UInt8]) throws(RedactionPlanDecodingError) {
        var reader = PlanReader(bytes: bytes)
        let version = try reader.byte()
        guard version == Self.encodingVersion else { throw .unsupportedVersion(version) }
        let strip = try RedactionPlan(from: &reader)
        let coarse = try RedactionPlan(from: &reader)
        guard reader.isAtEnd else { throw .trailingBytes(at: reader.position) }
        self.init(strip: strip, coarse: coarse)
    }
}

extension RedactionPlan {
    /// The binary form of one plan (no version byte).
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    /// Decodes what `encoded()` wrote for one plan.
    public init(encoded bytes: [UInt8]) throws(RedactionPlanDecodingError) {
        var reader = PlanReader(bytes: bytes)
        self = try RedactionPlan(from: &reader)
        guard reader.isAtEnd else { throw .trailingBytes(at: reader.position) }
    }

    func encode(into out: inout [UInt8]) {
        switch self {
        case .patches(let patches):
            out.append(0)
            appendVarint(UInt64(patches.count), to: &out)
            var previousEnd: Int64 = 0
            for patch in patches {
                appendVarint(UInt64(patch.offset - previousEnd), to: &out)
                appendVarint(UInt64(patch.bytes.count), to: &out)
                if let first = patch.bytes.first, patch.bytes.allSatisfy({ $0 == first }) {
                    out.append(1)
                    out.append(first)
                } else {
                    out.append(0)
                    out.append(contentsOf: patch.bytes)
                }
                previousEnd = patch.end
            }
        case .withheld(let reason):
            out.append(1)
            let utf8 = Array(reason.utf8)
            appendVarint(UInt64(utf8.count), to: &out)
            out.append(contentsOf: utf8)
        }
    }

    /// Most bytes a decoded plan may expand to (fills included): a guard against BLOBs that
    /// would make the reader allocate without bound.
    static let maxDecodedPatchBytes = 1 << 26

    init(from reader: inout PlanReader) throws(RedactionPlanDecodingError) {
        var patches: [Patch] = []
        let source = reader.bytes
        let reason = try Self.walk(&reader) { offset, length, body in
            switch body {
            case .literal(let start): patches.append(Patch(offset: offset, bytes: Array(source[start..<(start + length)])))
            case .fill(let byte): patches.append(Patch(offset: offset, bytes: [UInt8](repeating: byte, count: length)))
            }
        }
        self = reason.map { .withheld(reason: $0) } ?? .patches(patches)
    }

    /// Checks one encoded plan exactly as decoding does, building nothing: the stored
    /// private plans are checked when fetched and overlaid from their encoding.
    static func check(_ reader: inout PlanReader) throws(RedactionPlanDecodingError) {
        _ = try walk(&reader) { _, _, _ in }
    }

    /// Where a patch's bytes are in an encoding.
    enum EncodedPatchBody {
        /// `length` bytes from this position of the encoding.
        case literal(at: Int)
        /// One byte, `length` times.
        case fill(UInt8)
    }

    /// Walks one encoded plan, checking every rule, and hands each patch to `patch` (its
    /// offset, length and body); returns the reason of a withheld plan, nil for patches.
    static func walk(
        _ reader: inout PlanReader, _ patch: (_ offset: Int64, _ length: Int, _ body: EncodedPatchBody) -> Void
    ) throws(RedactionPlanDecodingError) -> String? {
        let tag = try reader.byte()
        switch tag {
        case 0:
            let count = try reader.varint()
            var previousEnd: Int64 = 0
            var total = 0
            var remaining = count
            var first = true
            while remaining > 0 {
                remaining -= 1
                let at = reader.position
                let gap = try reader.varint()
                let length = try reader.varint()
                guard length > 0 else { throw .malformedPatch(at: at) }
                guard first || gap > 0 else { throw .malformedPatch(at: at) }
                guard gap <= UInt64(Int64.max - previousEnd), length <= UInt64(Self.maxDecodedPatchBytes - total) else {
                    throw .malformedPatch(at: at)
                }
                let offset = previousEnd + Int64(gap)
                guard Int64(length) <= Int64.max - offset else { throw .malformedPatch(at: at) }
                let body: EncodedPatchBody
                switch try reader.byte() {
                case 0:
                    guard Int(length) <= reader.remaining else { throw .truncated }
                    body = .literal(at: reader.position)
                    reader.position += Int(length)
                case 1: body = .fill(try reader.byte())
                default: throw .malformedPatch(at: at)
                }
                patch(offset, Int(length), body)
                total += Int(length)
                previousEnd = offset + Int64(length)
                first = false
            }
            return nil
        case 1:
            let length = try reader.varint()
            guard length <= UInt64(reader.remaining) else { throw .truncated }
            let bytes = try reader.bytes(Int(length))
            guard let reason = String(validating: bytes, as: UTF8.self) else { throw .invalidText }
            return reason
        default:
            throw .unknownPlanKind(tag)
        }
    }
}

/// Why a stored plan could not be decoded.
public enum RedactionPlanDecodingError: Error, Hashable, Sendable {
    case unsupportedVersion(UInt8)
    case unknownPlanKind(UInt8)
    case truncated
    case malformedVarint(at: Int)
    case malformedPatch(at: Int)
    case invalidText
    case trailingBytes(at: Int)
}

private func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
        out.append(UInt8(truncatingIfNeeded: value) | 0x80)
        value >>= 7
    }
    out.append(UInt8(value))
}

/// A cursor over encoded bytes that never reads past the end.
struct PlanReader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position == bytes.count }
    var remaining: Int { bytes.count - position }

    mutating func byte() throws(RedactionPlanDecodingError) -> UInt8 {
        guard position < bytes.count else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bytes(_ count: Int) throws(RedactionPlanDecodingError) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw .truncated }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    /// An unsigned LEB128 value of at most 10 bytes that fits in 64 bits, minimally encoded.
    mutating func varint() throws(RedactionPlanDecodingError) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try self.byte()
            let payload = UInt64(byte & 0x7F)
            guard shift < 64, shift < 63 || payload <= 1 else { throw .malformedVarint(at: start) }
            value |= payload << shift
            if byte & 0x80 == 0 {
                // A final 0 byte after others is a non-minimal encoding.
                guard byte != 0 || position - start == 1 else { throw .malformedVarint(at: start) }
                return value
            }
            shift += 7
        }
    }
}
