// Shared helpers for the libFuzzer targets. Compiled into the same module as the MediaFormats
// sources (see run-fuzz.sh), so internal types are visible.

/// The fuzzer's input as a byte source.
func fuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> MemoryByteSource {
    MemoryByteSource(Array(UnsafeBufferPointer(start: data, count: size)))
}

/// Traps (a crash the fuzzer reports) when a plan breaks its invariants: patches sorted,
/// non-empty, non-overlapping, inside the file; the encoding round-trips; the overlay of
/// the whole file equals patch-by-patch application.
func checkPlan(_ plan: RedactionPlan, fileSize: Int64, original: [UInt8]) {
    guard case .patches(let patches) = plan else { return }
    var previousEnd: Int64 = -1
    for patch in patches {
        precondition(!patch.bytes.isEmpty, "empty patch")
        precondition(patch.offset > previousEnd, "patches overlap, touch or are unsorted")
        precondition(patch.offset >= 0 && patch.end <= fileSize, "patch outside the file")
        previousEnd = patch.end
    }
    let decoded = try? RedactionPlan(encoded: plan.encoded())
    precondition(decoded == plan, "encoding does not round-trip")

    var whole = original
    plan.apply(to: &whole, at: 0)
    var expected = original
    for patch in patches {
        expected.replaceSubrange(Int(patch.offset)..<Int(patch.end), with: patch.bytes)
    }
    precondition(whole == expected, "overlay differs from patch application")
    // A read split in two at an arbitrary point must give the same bytes.
    let cut = original.count / 3
    var head = Array(original[0..<cut])
    var tail = Array(original[cut...])
    plan.apply(to: &head, at: 0)
    plan.apply(to: &tail, at: Int64(cut))
    precondition(head + tail == expected, "split overlay differs")
}
