import PhotoCore

/// The compact binary form of one `RedactionPlan`, as stored in the catalog's BLOB columns.
///
/// Layout (integers are unsigned LEB128 varints):
///
///     plan  := 0x50 ('P') count patch*      patches, offsets ascending
///            | 0x57 ('W') length utf8       withheld, with its reason
///     patch := delta length bytes           delta = offset − end of the previous patch
///
/// Decoding treats the BLOB as hostile: it checks every length against what is left,
/// rejects overflowing varints, trailing bytes and patches out of order, and never traps.
enum RedactionPlanCodec {
    static let patchesTag: UInt8 = 0x50
    static let withheldTag: UInt8 = 0x57

    /// The plan's bytes.
    static func encode(_ plan: RedactionPlan) -> [UInt8] {
        var out: [UInt8] = []
        switch plan {
        case .patches(let patches):
            out.reserveCapacity(2 + patches.reduce(0) { $0 + $1.bytes.count + 4 })
            out.append(patchesTag)
            appendVarint(UInt64(patches.count), to: &out)
            var previousEnd: Int64 = 0
            for patch in patches {
                // Plans are sorted and disjoint; a plan that is not is still stored faithfully.
                appendVarint(UInt64(bitPattern: patch.offset &- previousEnd), to: &out)
                appendVarint(UInt64(patch.bytes.count), to: &out)
                out.append(contentsOf: patch.bytes)
                previousEnd = patch.end
            }
        case .withheld(let reason):
            out.append(withheldTag)
            let utf8 = Array(reason.utf8)
            appendVarint(UInt64(utf8.count), to: &out)
            out.append(contentsOf: utf8)
        }
        return out
    }

    /// The plan back from its bytes, or nil when the bytes are not a plan.
    static func decode(_ bytes: [UInt8]) -> RedactionPlan? {
        var position = 0
        func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let b = byte() {
                guard shift < 64, shift < 63 || b & 0x7E == 0 else { return nil }
                value |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        func take(_ count: UInt64) -> [UInt8]? {
            guard count <= UInt64(bytes.count - position) else { return nil }
            defer { position += Int(count) }
            return Array(bytes[position..<(position + Int(count))])
        }
        switch byte() {
        case patchesTag:
            guard let count = varint(), count <= UInt64(bytes.count) else { return nil }
            var patches: [Patch] = []
            patches.reserveCapacity(Int(count))
            var previousEnd: Int64 = 0
            for _ in 0..<count {
                guard let delta = varint(), let length = varint(), let data = take(length) else { return nil }
                let (offset, overflow) = previousEnd.addingReportingOverflow(Int64(bitPattern: delta))
                guard !overflow, offset >= 0, Int64(data.count) <= Int64.max - offset else { return nil }
                patches.append(Patch(offset: offset, bytes: data))
                previousEnd = offset + Int64(data.count)
            }
            guard position == bytes.count else { return nil }
            return .patches(patches)
        case withheldTag:
            guard let length = varint(), let data = take(length), position == bytes.count,
                let reason = String(validating: data, as: UTF8.self)
            else { return nil }
            return .withheld(reason: reason)
        default:
            return nil
        }
    }

    private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }
}
