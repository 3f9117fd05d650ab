/// Overlays sorted, non-overlapping patches onto bytes just read from the original file:
/// the read path of a view that redacts. Finds the first intersecting patch by binary
/// search and copies only the intersections; allocates nothing.
public enum PatchOverlay {
    /// The index of the first patch that ends after `offset` (`patches.count` if none).
    /// `patches` must be sorted by offset and non-overlapping.
    public static func firstIndex(in patches: [Patch], endingAfter offset: Int64) -> Int {
        var low = 0
        var high = patches.count
        while low < high {
            let middle = low + (high - low) / 2
            if patches[middle].end <= offset {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Overlays onto `buffer`, which holds the file's bytes `[fileOffset, fileOffset + buffer.count)`.
    public static func apply(_ patches: [Patch], to buffer: UnsafeMutableRawBufferPointer, at fileOffset: Int64) {
        guard !patches.isEmpty, buffer.count > 0, let base = buffer.baseAddress, fileOffset >= 0 else { return }
        let (readEnd, overflow) = fileOffset.addingReportingOverflow(Int64(buffer.count))
        guard !overflow else { return }
        var index = firstIndex(in: patches, endingAfter: fileOffset)
        while index < patches.count {
            let patch = patches[index]
            if patch.offset >= readEnd { break }
            let start = max(patch.offset, fileOffset)
            let end = min(patch.end, readEnd)
            patch.bytes.withUnsafeBytes { source in
                if let from = source.baseAddress {
                    (base + Int(start - fileOffset)).copyMemory(from: from + Int(start - patch.offset), byteCount: Int(end - start))
                }
            }
            index += 1
        }
    }

    /// Overlays onto `bytes`, which hold the file's bytes `[fileOffset, fileOffset + bytes.count)`.
    public static func apply(_ patches: [Patch], to bytes: inout [UInt8], at fileOffset: Int64) {
        bytes.withUnsafeMutableBytes { apply(patches, to: $0, at: fileOffset) }
    }
}

extension RedactionPlan {
    /// The patches to overlay, or nil when the file is withheld (serve nothing).
    public var patchesToServe: [Patch]? {
        switch self {
        case .patches(let patches): patches
        case .withheld: nil
        }
    }

    /// Overlays this plan onto a read of `[fileOffset, fileOffset + buffer.count)`.
    /// Returns false, leaving the buffer alone, when the plan withholds the file: the
    /// caller must then refuse the read.
    @discardableResult
    public func apply(to buffer: UnsafeMutableRawBufferPointer, at fileOffset: Int64) -> Bool {
        guard case .patches(let patches) = self else { return false }
        PatchOverlay.apply(patches, to: buffer, at: fileOffset)
        return true
    }

    /// Overlays this plan onto `bytes` read at `fileOffset`; false when withheld.
    @discardableResult
    public func apply(to bytes: inout [UInt8], at fileOffset: Int64) -> Bool {
        guard case .patches(let patches) = self else { return false }
        PatchOverlay.apply(patches, to: &bytes, at: fileOffset)
        return true
    }
}
