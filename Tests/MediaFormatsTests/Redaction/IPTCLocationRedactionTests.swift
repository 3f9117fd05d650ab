import Foundation
import PhotoSamples
import TestSupport
import Testing

@testable import MediaFormats

/// IPTC-IIM place names in a JPEG's APP13 Photoshop resources: found by the JPEG walker,
/// renamed and blanked in place by the planner (same size, nothing else touched), the
/// fail-closed paths, every truncation survived, and exiftool as the independent reader.
@Suite struct IPTCLocationRedactionTests {
    /// One IIM dataset: tag marker, record, dataset, length (extended when asked), value.
    static func dataset(_ record: UInt8, _ number: UInt8, _ value: String, extended: Bool = false) -> [UInt8] {
        let bytes = Array(value.utf8)
        let length: [UInt8] =
            extended
            ? [0x80, 0x04] + TIFFByteOrder.bigEndian.bytes(of: UInt32(bytes.count))
            : TIFFByteOrder.bigEndian.bytes(of: UInt16(bytes.count))
        return [0x1C, record, number] + length + bytes
    }

    /// The place-name datasets of the fixture and their values (fictional places).
    static let places: [(UInt8, String)] = [
        (90, "Testville"), (92, "Old Town"), (95, "Test Province"), (100, "TST"), (101, "Testland"), (27, "Harbour"),
    ]

    /// IIM data: a record version, an object name, every place name, a caption with an
    /// extended length, and two bytes of zero padding.
    static let iptc: [UInt8] =
        [0x1C, 2, 0, 0, 2, 0, 4] + dataset(2, 5, "Object") + places.flatMap { dataset(2, $0.0, $0.1) }
        + dataset(2, 120, "A caption", extended: true) + [0, 0]

    /// One Photoshop resource: signature, id, empty Pascal name, size, data padded to even.
    static func resource(_ id: UInt16, _ data: [UInt8], name: String = "") -> [UInt8] {
        var pascal = [UInt8(name.utf8.count)] + Array(name.utf8)
        if pascal.count % 2 == 1 { pascal.append(0) }
        return Array("8BIM".utf8) + TIFFByteOrder.bigEndian.bytes(of: id) + pascal + TIFFByteOrder.bigEndian.bytes(of: UInt32(data.count))
            + data + (data.count % 2 == 1 ? [0] : [])
    }

    /// Resolution info, the IPTC data (a named resource), and the IPTC digest (its MD5).
    static func resources(digest: [UInt8] = MD5.hash(iptc)) -> [UInt8] {
        resource(0x03ED, [UInt8](repeating: 1, count: 16)) + resource(0x0404, iptc, name: "iptc") + resource(0x0425, digest)
    }

    static let resources = resources()

    /// A JPEG with GPS EXIF and an APP13 holding `resources`.
    static func jpeg(resources: [UInt8] = resources) throws -> [UInt8] {
        let exif = ExifBuilder().build(ExifFields(make: "Test", location: GeoLocation(latitude: 10.5, longitude: 20.25))).bytes
        let picture = ProceduralPicture.draw(seed: 3, width: 32, height: 24)
        let app13 = JPEGSegment(marker: 0xED, payload: Array("Photoshop 3.0\0".utf8) + resources)
        return try JPEGEncoder().encode(picture, metadata: JPEGMetadata(exif: exif, extraSegments: [app13]))
    }

    static func patched(_ bytes: [UInt8], _ plan: RedactionPlan) -> [UInt8] {
        var copy = bytes
        #expect(plan.apply(to: &copy, at: 0))
        return copy
    }

    /// Where `needle` starts in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func walkerFindsTheResourceBlock() throws {
        let bytes = try Self.jpeg()
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .jpeg)
        let start = try #require(Self.find(Self.resources, in: bytes))
        #expect(layout.photoshopResources == [ByteRange(offset: Int64(start), length: Int64(Self.resources.count))])
        #expect(layout.isComplete)
    }

    @Test(arguments: [LocationPolicy.strip, .coarse])
    func placeNamesAreRenamedAndBlankedInPlace(policy: LocationPolicy) throws {
        let bytes = try Self.jpeg()
        let source = MemoryByteSource(bytes)
        let plan = RedactionPlanner.plans(layout: ContainerWalker.layout(of: source, format: .jpeg), source: source).plan(for: policy)
        let out = Self.patched(bytes, plan)
        #expect(out.count == bytes.count)
        // Every place dataset: number 254, value spaces, length unchanged.
        for (number, value) in Self.places {
            let at = try #require(Self.find(Self.dataset(2, number, value), in: bytes))
            let blanked = Self.dataset(2, 254, String(repeating: " ", count: value.utf8.count))
            #expect(Array(out[at..<(at + blanked.count)]) == blanked, "dataset 2:\(number)")
        }
        // The rest of the IPTC data is untouched: only the dataset numbers and every value
        // byte that was not a space already changed.
        let start = try #require(Self.find(Self.iptc, in: bytes))
        var changed = 0
        for i in start..<(start + Self.iptc.count) where out[i] != bytes[i] { changed += 1 }
        #expect(changed == Self.places.reduce(0) { $0 + 1 + $1.1.utf8.filter { $0 != 0x20 }.count })
        // The digest resource, right after the IPTC resource, holds the MD5 of the new data;
        // nothing before the IPTC data changed.
        let digestAt = start + Self.iptc.count + Self.iptc.count % 2 + 12
        #expect(Array(out[digestAt..<(digestAt + 16)]) == MD5.hash(Array(out[start..<(start + Self.iptc.count)])))
        #expect(Array(out[digestAt..<(digestAt + 16)]) != MD5.hash(Self.iptc))
        let resourcesStart = try #require(Self.find(Self.resources, in: bytes))
        #expect(out[resourcesStart..<start] == bytes[resourcesStart..<start])
        #expect(out[(digestAt + 16)...] == bytes[(digestAt + 16)...])
        for kept in [Self.dataset(2, 5, "Object"), Self.dataset(2, 120, "A caption", extended: true)] {
            #expect(Self.find(kept, in: out) != nil)
        }
    }

    @Test func aStaleDigestStaysAsItWas() throws {
        let stale = [UInt8](repeating: 0xAB, count: 16)
        let bytes = try Self.jpeg(resources: Self.resources(digest: stale))
        let source = MemoryByteSource(bytes)
        let out = Self.patched(
            bytes, RedactionPlanner.plans(layout: ContainerWalker.layout(of: source, format: .jpeg), source: source).strip)
        let at = try #require(Self.find(stale, in: bytes))
        #expect(Array(out[at..<(at + 16)]) == stale)
    }

    @Test func iptcThatDoesNotWalkIsRemovedWhole() throws {
        // The second dataset lacks its 0x1C marker.
        var broken = Self.iptc
        broken[7] = 0x1D
        let resources =
            Self.resource(0x03ED, [UInt8](repeating: 1, count: 16)) + Self.resource(0x0404, broken)
            + Self.resource(0x0425, MD5.hash(broken))
        let bytes = try Self.jpeg(resources: resources)
        let source = MemoryByteSource(bytes)
        let plan = RedactionPlanner.plans(layout: ContainerWalker.layout(of: source, format: .jpeg), source: source).strip
        let out = Self.patched(bytes, plan)
        let start = try #require(Self.find(resources, in: bytes))
        let iptcResource = start + 28  // after the 28-byte resolution resource
        let expected =
            Array("8BIM".utf8) + [0, 0, 0, 0] + TIFFByteOrder.bigEndian.bytes(of: UInt32(broken.count))
            + [UInt8](repeating: 0, count: broken.count)
        #expect(Array(out[iptcResource..<(iptcResource + expected.count)]) == expected)
        #expect(Array(out[start..<iptcResource]) == Array(bytes[start..<iptcResource]))
        // The digest resource no longer names itself one (id 0), its bytes stay.
        let digest = iptcResource + 12 + broken.count + broken.count % 2
        #expect(Array(out[digest..<(digest + 28)]) == Array("8BIM".utf8) + [0, 0] + Array(bytes[(digest + 6)..<(digest + 28)]))
    }

    @Test func resourceChainThatDoesNotWalkBecomesOneEmptyResource() throws {
        var resources = Self.resources
        resources[28 + 1] = UInt8(ascii: "X")  // "8XIM": not a resource signature
        let bytes = try Self.jpeg(resources: resources)
        let source = MemoryByteSource(bytes)
        let report = RedactionPlanner.report(layout: ContainerWalker.layout(of: source, format: .jpeg), source: source)
        let out = Self.patched(bytes, report.plans.strip)
        let start = try #require(Self.find(resources, in: bytes))
        let size = UInt32((resources.count - 12) & ~1)
        let expected =
            Array("8BIM".utf8) + [0, 0, 0, 0] + TIFFByteOrder.bigEndian.bytes(of: size)
            + [UInt8](repeating: 0, count: resources.count - 12)
        #expect(Array(out[start..<(start + resources.count)]) == expected)
        #expect(report.notes.contains { $0.hasSuffix("block blanked") })
        // The replacement walks as a chain of one resource with nothing in it.
        let chain = try #require(IPTCLocationRedactor.resources(in: expected, at: 0))
        #expect(chain.count == 1 && chain[0].id == 0)
    }

    /// IPTC in a TIFF structure's IPTC-NAA tag (33723), here in a JPEG's EXIF IFD0: place
    /// names renamed and blanked; IIM that does not walk becomes zeros.
    @Test(arguments: [false, true])
    func iptcInTheTIFFTagIsRedacted(broken: Bool) throws {
        var iptc = Self.iptc
        if broken { iptc[7] = 0x1D }
        let fields = ExifFields(make: "Test", extraIFD0: [TIFFBuilderEntry(0x83BB, .undefined(iptc))])
        let exif = ExifBuilder(byteOrder: .bigEndian).build(fields).bytes
        let bytes = try JPEGEncoder().encode(ProceduralPicture.draw(seed: 5, width: 16, height: 16), metadata: JPEGMetadata(exif: exif))
        let source = MemoryByteSource(bytes)
        let plans = RedactionPlanner.plans(layout: ContainerWalker.layout(of: source, format: .jpeg), source: source)
        let at = try #require(Self.find(iptc, in: bytes))
        for plan in [plans.strip, plans.coarse] {
            let out = Array(Self.patched(bytes, plan)[at..<(at + iptc.count)])
            if broken {
                #expect(out == [UInt8](repeating: 0, count: iptc.count))
                continue
            }
            var expected = iptc
            for (number, value) in Self.places {
                let dataset = Self.dataset(2, number, value)
                let offset = try #require(Self.find(dataset, in: iptc))
                expected.replaceSubrange(
                    offset..<(offset + dataset.count), with: Self.dataset(2, 254, String(repeating: " ", count: value.utf8.count)))
            }
            #expect(out == expected)
        }
    }

    /// A block too large to be IPTC (a hostile TIFF tag count) is not read: the file is withheld.
    @Test func oversizeBlockWithholdsTheFile() {
        let size = Int64(IPTCLocationRedactor.maxBlock) + 1
        let source = MemoryByteSource([UInt8](repeating: 0, count: Int(size)))
        let layout = ContainerLayout(format: .jpeg, photoshopResources: [ByteRange(offset: 0, length: size)])
        let plans = RedactionPlanner.plans(layout: layout, source: source)
        guard case .withheld = plans.strip, case .withheld = plans.coarse else {
            Issue.record("an oversize resource block was planned instead of withheld")
            return
        }
    }

    @Test func noPlaceNamesMeansNoPatches() throws {
        let iptc: [UInt8] = [0x1C, 2, 0, 0, 2, 0, 4] + Self.dataset(2, 5, "Object")
        let bytes = try Self.jpeg(resources: Self.resource(0x0404, iptc))
        let source = MemoryByteSource(bytes)
        let layout = ContainerWalker.layout(of: source, format: .jpeg)
        var patches = PatchList()
        let outcome = try IPTCLocationRedactor().plan(layout.photoshopResources[0], source: source, into: &patches)
        #expect(outcome == .noLocation)
        #expect(patches.isEmpty)
    }

    /// Every prefix of the resource block (as if the segment were cut short): the planner
    /// never traps, and what it serves holds no place-name dataset that a walk can find.
    @Test func everyTruncationIsSurvivedAndLeavesNoPlaceName() throws {
        for length in 0...Self.resources.count {
            let block = Array(Self.resources.prefix(length))
            let source = MemoryByteSource(block)
            var patches = PatchList()
            _ = try IPTCLocationRedactor().plan(ByteRange(offset: 0, length: Int64(length)), source: source, into: &patches)
            var out = block
            PatchOverlay.apply(patches.merged(), to: &out, at: 0)
            #expect(out.count == block.count)
            for resource in IPTCLocationRedactor.resources(in: out, at: 0) ?? [] where resource.id == IPTCLocationRedactor.iptcResource {
                let data = out[Int(resource.data.offset)..<Int(resource.data.end)]
                #expect(IPTCLocationRedactor.locationDatasets(in: data)?.isEmpty ?? true, "prefix \(length)")
            }
            for (_, value) in Self.places where value.utf8.count > 3 {
                #expect(Self.find(Array(value.utf8), in: out) == nil, "prefix \(length) still holds a place name")
            }
        }
    }

    @Test(.enabled(if: ExternalTools.exiftool != nil, "needs exiftool"))
    func exiftoolFindsNoPlaceNameAndNoNewComplaint() throws {
        let bytes = try Self.jpeg()
        let source = MemoryByteSource(bytes)
        let plans = RedactionPlanner.plans(layout: ContainerWalker.layout(of: source, format: .jpeg), source: source)
        let folder = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (name, content) in [
            ("original", bytes), ("strip", Self.patched(bytes, plans.strip)), ("coarse", Self.patched(bytes, plans.coarse)),
        ] {
            let path = folder.appendingPathComponent("\(name).jpg").path
            try Data(content).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let readings = try ExternalTools.exiftoolJSON(paths, extra: ["-a", "-G1"])
        try #require(readings.count == 3)
        let placeKeys = [
            "IPTC:City", "IPTC:Sub-location", "IPTC:Province-State", "IPTC:Country-PrimaryLocationCode",
            "IPTC:Country-PrimaryLocationName", "IPTC:ContentLocationName",
        ]
        // The checker sees them in the original, or its silence would prove nothing.
        #expect(placeKeys.allSatisfy { readings[0][$0] != nil }, "exiftool does not see the fixture's place names")
        for (name, reading) in zip(["strip", "coarse"], readings[1...]) {
            #expect(placeKeys.filter { reading[$0] != nil } == [], "\(name)")
            #expect(reading["IPTC:ObjectName"] as? String == "Object", "\(name): other IPTC data lost")
            #expect(reading["IPTC:Caption-Abstract"] as? String == "A caption", "\(name): other IPTC data lost")
            for key in ["ExifTool:Warning", "ExifTool:Error"] {
                let message = reading[key].map { "\($0)" }
                #expect(message == nil || message == readings[0][key].map { "\($0)" }, "\(name): new \(key): \(message ?? "")")
            }
        }
    }
}
