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

/// Walks and plans `bytes` as `format` and checks every range and plan: the shared body of
/// the per-walker targets, which wrap their input so the fuzzer stays inside one walker.
func fuzzWalkAndPlan(_ bytes: [UInt8], as format: MediaFormat) {
    let source = MemoryByteSource(bytes)
    let length = Int64(bytes.count)
    let layout = ContainerWalker.layout(of: source, format: format)
    func inside(_ range: ByteRange) -> Bool { range.offset >= 0 && range.length >= 0 && range.offset <= length - range.length }
    for range in layout.exifBlocks + layout.xmpPackets + layout.iptcBlocks + layout.flirChunks.map(\.data) + layout.gpmfSamples {
        precondition(inside(range), "layout range outside the file")
    }
    let report = RedactionPlanner.report(layout: layout, source: source)
    checkPlan(report.plans.strip, fileSize: length, original: bytes)
    checkPlan(report.plans.coarse, fileSize: length, original: bytes)
    for policy in [LocationPolicy.keep, .strip, .coarse] {
        checkPlan(report.plans.privatePlans.plan(for: policy), fileSize: length, original: bytes)
    }
    // A plan that is served removes what the model found: found location means patches.
    if !report.found.isEmpty, !report.found.contains(.unverified), case .patches(let patches) = report.plans.strip {
        precondition(!patches.isEmpty, "location found but nothing patched")
    }
}
