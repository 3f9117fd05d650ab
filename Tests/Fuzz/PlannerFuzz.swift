// libFuzzer target: the redaction planner with the input as an XMP packet, an EXIF block
// and a PNG-style checksummed chunk at once (every location and metadata policy; private
// plans also overlaid from their stored form), and the plan decoders on the raw input; then
// the input alone as Photoshop resources (JPEG APP13) from its first "8BIM" on, where the
// redacted bytes must hold no IPTC place name that a second walk can find.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlanner(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = fuzzInput(data, size)
    let length = Int64(size)
    // The first byte picks where the EXIF block starts, so headers are found at any offset.
    let exifStart = size > 0 ? min(Int64(data[0]), length) : 0
    let layout = ContainerLayout(
        format: .png,
        exifBlocks: [ByteRange(offset: exifStart, length: length - exifStart)],
        xmpPackets: [ByteRange(offset: 0, length: length)],
        checksummedChunks: length >= 4
            ? [ChecksummedChunk(covered: ByteRange(offset: 0, length: length - 4), checksumOffset: length - 4)] : []
    )
    let plans = RedactionPlanner.plans(layout: layout, source: source)
    checkPlan(plans.strip, fileSize: length, original: source.bytes)
    checkPlan(plans.coarse, fileSize: length, original: source.bytes)
    // The private plans: sound, and overlaid from their stored form as decoded.
    for policy in LocationPolicy.allCases {
        let plan = plans.privatePlans.plan(for: policy)
        checkPlan(plan, fileSize: length, original: source.bytes)
        guard case .patches = plan else { continue }
        var decoded = source.bytes
        plan.apply(to: &decoded, at: 0)
        var overlaid = source.bytes
        let served = overlaid.withUnsafeMutableBytes { plans.privatePlans.apply(for: policy, to: $0, at: 0) }
        precondition(served && overlaid == decoded, "the stored private plan overlays other bytes than the decoded one")
    }

    // The resource block starts at the first "8BIM" (so seeds cut from JPEGs with an APP13
    // reach the resource walker at once), else at 0.
    let bytes = source.bytes
    let signature: [UInt8] = Array("8BIM".utf8)
    let resourceStart = bytes.count < 4 ? 0 : (0...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(signature) } ?? 0
    let resources = ContainerLayout(
        format: .jpeg, photoshopResources: [ByteRange(offset: Int64(resourceStart), length: length - Int64(resourceStart))])
    let iptcPlans = RedactionPlanner.plans(layout: resources, source: source)
    checkPlan(iptcPlans.strip, fileSize: length, original: source.bytes)
    if case .patches = iptcPlans.strip {
        var redacted = source.bytes
        iptcPlans.strip.apply(to: &redacted, at: 0)
        let block = Array(redacted[resourceStart...])
        for resource in IPTCLocationRedactor.resources(in: block, at: 0) ?? [] where resource.id == IPTCLocationRedactor.iptcResource {
            let data = block[Int(resource.data.offset)..<Int(resource.data.end)]
            precondition(IPTCLocationRedactor.locationDatasets(in: data)?.isEmpty ?? true, "an IPTC place name survived")
        }
    }

    // Hostile stored private plans: whatever decodes overlays within the buffer or refuses.
    if let stored = try? PrivatePlans(encoded: source.bytes) {
        var buffer = [UInt8](repeating: 0, count: 64)
        for policy in LocationPolicy.allCases {
            _ = stored.plan(for: policy)
            _ = buffer.withUnsafeMutableBytes { stored.apply(for: policy, to: $0, at: 3) }
        }
    }
    if let decoded = try? RedactionPlans(encoded: source.bytes) {
        precondition((try? RedactionPlans(encoded: decoded.encoded())) == decoded, "decode/encode does not round-trip")
    }
    return 0
}
