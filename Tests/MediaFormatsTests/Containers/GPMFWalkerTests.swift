import TestSupport
import Testing

@testable import MediaFormats

/// The GoPro GPMF track: samples found through the sample table, walked, and the plans
/// that strip or round their GPS streams (checked by walking the planned bytes again).
@Suite struct GPMFWalkerTests {
    typealias G = GoProFixture

    static let positions = [
        G.Position(latitude: 37.422_034, longitude: -122.084_123, altitude: 31.5),
        G.Position(latitude: 37.422_311, longitude: -122.084_987, altitude: 32.25),
    ]

    static let tables: [GoProFixture.Table] = [
        .init(), .init(co64: true), .init(stz2: true, samplesPerChunk: 2), .init(co64: true, samplesPerChunk: 3),
    ]

    static func samples(gps9: Bool = false) -> [[UInt8]] {
        (0..<3).map { i in
            G.sample(
                positions.map { G.Position(latitude: $0.latitude + Double(i) * 0.0001, longitude: $0.longitude, altitude: $0.altitude) },
                gps9: gps9)
        }
    }

    /// The location keys left in a file's GPMF samples, walking the planned bytes.
    static func locationKeys(_ bytes: [UInt8], samples: [ByteRange]) -> [String] {
        samples.flatMap { range -> [String] in
            guard case .streams(let streams) = GPMFWalker.walk(Array(bytes[Int(range.offset)..<Int(range.end)])) else {
                return ["unwalkable"]
            }
            return streams.flatMap(\.items).filter(\.isLocation).map(\.name)
        }
    }

    @Test(arguments: tables)
    func samplesAreFoundThroughEverySampleTableForm(table: GoProFixture.Table) throws {
        let samples = Self.samples()
        let bytes = G.movie(samples, table: table)
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .mp4)
        #expect(layout.isComplete, "\(layout.problems)")
        var expected: [ByteRange] = []
        var at = try #require(Fixture.offset(of: samples[0], in: bytes))
        for sample in samples {
            expected.append(range(at, sample.count))
            at += sample.count
        }
        #expect(layout.gpmfSamples == expected)
    }

    @Test func walkerListsStreamsAndMarksTheGPSOne() throws {
        guard case .streams(let streams) = GPMFWalker.walk(G.sample(Self.positions)) else {
            Issue.record("the sample does not walk")
            return
        }
        #expect(streams.count == 3)
        // A container's own leaves come after the containers it nests: accelerometer, GPS, device.
        #expect(streams.map(\.isLocated) == [false, true, false])
        #expect(streams[0].items.map(\.name) == ["STMP", "STNM", "SCAL", "ACCL"])
        #expect(streams[1].items.map(\.name).suffix(5) == ["GPSU", "GPSP", "UNIT", "SCAL", "GPS5"])
        #expect(streams[2].items.map(\.name) == ["DVID", "DVNM"])
        let gps5 = try #require(streams[1].items.last)
        #expect(gps5.structSize == 20 && gps5.repeatCount == 2 && gps5.data.count == 40)
    }

    @Test(arguments: [false, true], tables)
    func stripRemovesEveryGPSItemAndKeepsTheRest(gps9: Bool, table: GoProFixture.Table) throws {
        let bytes = G.movie(Self.samples(gps9: gps9), table: table)
        let source = MemoryByteSource(bytes)
        let layout = ContainerWalker.layout(of: source, format: .mp4)
        #expect(!Self.locationKeys(bytes, samples: layout.gpmfSamples).isEmpty)
        let report = RedactionPlanner.report(layout: layout, source: source)
        #expect(report.found == .gpmf)
        guard case .patches(let patches) = report.plans.strip else {
            Issue.record("strip is withheld: \(report.plans.strip)")
            return
        }
        var stripped = bytes
        PatchOverlay.apply(patches, to: &stripped, at: 0)
        #expect(stripped.count == bytes.count)
        #expect(Self.locationKeys(stripped, samples: layout.gpmfSamples).isEmpty)
        // The accelerometer stream and everything outside the GPMF samples are untouched.
        let accel = G.klv("ACCL", "s", size: 6, (0..<12).flatMap { G.be16($0 * 37) })
        #expect(Fixture.offset(of: accel, in: stripped) == Fixture.offset(of: accel, in: bytes))
        for patch in patches {
            #expect(layout.gpmfSamples.contains { $0.offset <= patch.offset && patch.end <= $0.end })
        }
        // No coordinate bytes survive: the first latitude's big-endian value is gone.
        let latitude = G.be32(Int(Self.positions[0].latitude * 10_000_000))
        #expect(Fixture.offset(of: latitude, in: bytes) != nil)
        #expect(Fixture.offset(of: latitude, in: stripped) == nil)
        let reparsed = ContainerWalker.layout(of: MemoryByteSource(stripped), format: .mp4)
        #expect(RedactionPlanner.report(layout: reparsed, source: MemoryByteSource(stripped)).found.isEmpty)
    }

    @Test(arguments: [false, true])
    func coarseRoundsPositionsAndZeroesAltitude(gps9: Bool) throws {
        let bytes = G.movie(Self.samples(gps9: gps9))
        let source = MemoryByteSource(bytes)
        let layout = ContainerWalker.layout(of: source, format: .mp4)
        guard case .patches(let patches) = RedactionPlanner.report(layout: layout, source: source).plans.coarse else {
            Issue.record("coarse is withheld")
            return
        }
        var coarse = bytes
        PatchOverlay.apply(patches, to: &coarse, at: 0)
        for range in layout.gpmfSamples {
            let sample = Array(coarse[Int(range.offset)..<Int(range.end)])
            guard case .streams(let streams) = GPMFWalker.walk(sample), let gps = streams.first(where: \.isLocated),
                let item = gps.items.last
            else {
                Issue.record("the coarse sample lost its GPS stream")
                continue
            }
            #expect(item.name == (gps9 ? "GPS9" : "GPS5"))
            let view = ByteView(sample)
            for record in 0..<item.repeatCount {
                let at = item.data.lowerBound + record * item.structSize
                let latitude = Double(Int32(bitPattern: try #require(view.u32(at)))) / 10_000_000
                let longitude = Double(Int32(bitPattern: try #require(view.u32(at + 4)))) / 10_000_000
                #expect(abs(latitude - 37.42) < 1e-9)
                #expect(abs(longitude + 122.08) < 1e-9)
                #expect(view.u32(at + 8) == 0)
                // Speeds are kept.
                #expect(view.u32(at + 12) == 1250)
            }
        }
    }

    @Test func userDataGPMFIsWalkedToo() throws {
        // A movie without a gpmd track whose udta GPMF atom holds a GPS stream.
        let gpmf = Fixture.box("GPMF", G.sample(Self.positions))
        let bytes = Fixture.box("ftyp", Fixture.ascii("mp41") + Fixture.be32(0)) + Fixture.box("moov", Fixture.box("udta", gpmf))
        let source = MemoryByteSource(bytes)
        let layout = ContainerWalker.layout(of: source, format: .mp4)
        #expect(layout.gpmfSamples == [range(bytes.count - gpmf.count + 8, gpmf.count - 8)])
        let report = RedactionPlanner.report(layout: layout, source: source)
        #expect(report.found == .gpmf)
        guard case .patches(let patches) = report.plans.strip else {
            Issue.record("strip is withheld")
            return
        }
        var stripped = bytes
        PatchOverlay.apply(patches, to: &stripped, at: 0)
        #expect(Self.locationKeys(stripped, samples: layout.gpmfSamples).isEmpty)
    }

    @Test func aTrackWithoutGPSHasNoLocation() throws {
        let accelOnly = G.nest(
            "DEVC", G.klv("DVID", "L", size: 4, G.be32(1)) + G.nest("STRM", G.klv("ACCL", "s", size: 6, [UInt8](repeating: 1, count: 12))))
        let bytes = G.movie([accelOnly, accelOnly])
        let source = MemoryByteSource(bytes)
        let report = RedactionPlanner.report(layout: ContainerWalker.layout(of: source, format: .mp4), source: source)
        #expect(report.found.isEmpty)
        #expect(report.plans.strip == .identity)
    }

    @Test(arguments: ["item past its container", "data after null key", "stsz count", "sample outside file", "deep nesting"])
    func whatCannotBeWalkedIsWithheld(damage: String) throws {
        var samples = Self.samples()
        var table = GoProFixture.Table()
        switch damage {
        case "item past its container":
            // The GPS5 repeat grows beyond the sample.
            let at = try #require(Fixture.offset(of: Array("GPS5".utf8), in: samples[1]))
            samples[1].replaceSubrange((at + 6)..<(at + 8), with: G.be16(400))
        case "data after null key":
            samples[2] += [0, 0, 0, 0, 0, 0, 0, 0, 7, 7, 7, 7]
        case "deep nesting":
            var nested = G.klv("GPS5", "l", size: 20, [UInt8](repeating: 1, count: 20))
            for _ in 0..<10 { nested = G.nest("STRM", nested) }
            samples[0] = nested
        default:
            table = GoProFixture.Table(co64: true)
        }
        var bytes = G.movie(samples, table: table)
        if damage == "stsz count" {
            let at = try #require(Fixture.offset(of: Array("stsz".utf8), in: bytes))
            bytes.replaceSubrange((at + 12)..<(at + 16), with: G.be32(2))
        } else if damage == "sample outside file" {
            let at = try #require(Fixture.offset(of: Array("co64".utf8), in: bytes))
            bytes.replaceSubrange((at + 12)..<(at + 20), with: G.be64(bytes.count - 4))
        }
        let source = MemoryByteSource(bytes)
        let report = RedactionPlanner.report(layout: ContainerWalker.layout(of: source, format: .mp4), source: source)
        #expect(report.found.contains(.unverified))
        guard case .withheld = report.plans.strip, case .withheld = report.plans.coarse else {
            Issue.record("\(damage): served")
            return
        }
    }
}
