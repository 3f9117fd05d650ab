/// The XMP packets of one file as the planner reads them: each packet's bytes and its
/// location and identity scans, made on first use and then shared by the five plans of
/// one report (the scans depend on the bytes alone; the plans differ only in what they
/// do with them). A read that fails is not kept: each plan that asks meets the failure.
final class XMPScans {
    private var texts: [(range: ByteRange, bytes: [UInt8])] = []
    private var locations: [(range: ByteRange, scanner: XMPLocationScanner)] = []
    private var identities: [(range: ByteRange, scanner: XMPIdentityScanner)] = []

    /// The bytes of `packet`, read once.
    func text(of packet: ByteRange, source: some ByteSource) throws(ByteSourceError) -> [UInt8] {
        if let known = texts.first(where: { $0.range == packet }) { return known.bytes }
        let bytes = try RedactionPlanner.read(packet, from: source)
        texts.append((packet, bytes))
        return bytes
    }

    /// The bytes of `packet` and where its location is.
    func location(of packet: ByteRange, source: some ByteSource) throws(ByteSourceError) -> ([UInt8], XMPLocationScanner) {
        let bytes = try text(of: packet, source: source)
        if let known = locations.first(where: { $0.range == packet }) { return (bytes, known.scanner) }
        let scanner = XMPLocationScanner(bytes)
        locations.append((packet, scanner))
        return (bytes, scanner)
    }

    /// Where the identity properties of `packet` are.
    func identity(of packet: ByteRange, source: some ByteSource) throws(ByteSourceError) -> XMPIdentityScanner {
        if let known = identities.first(where: { $0.range == packet }) { return known.scanner }
        let scanner = XMPIdentityScanner(try text(of: packet, source: source))
        identities.append((packet, scanner))
        return scanner
    }
}
