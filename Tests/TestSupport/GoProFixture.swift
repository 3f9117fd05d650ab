/// Small GoPro-like MP4 files built byte by byte: a `moov` with one timed-metadata track
/// (`hdlr` `meta`, `stsd` `gpmd`, `stts`, `stsc`, `stsz` or `stz2`, `stco` or `co64`) whose
/// samples in `mdat` are GPMF: a `DEVC` holding a GPS stream (`GPS5` as HERO5-HERO10 write
/// it, or `GPS9` with its `TYPE` as HERO11 and later do) and an accelerometer stream.
public enum GoProFixture {
    /// One position of a GPS stream, in degrees and metres.
    public struct Position: Sendable {
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double

        public init(latitude: Double, longitude: Double, altitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }
    }

    /// How the sample table is written.
    public struct Table: Sendable {
        public var co64 = false
        public var stz2 = false
        public var samplesPerChunk = 1

        public init(co64: Bool = false, stz2: Bool = false, samplesPerChunk: Int = 1) {
            self.co64 = co64
            self.stz2 = stz2
            self.samplesPerChunk = samplesPerChunk
        }
    }

    public static func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
    public static func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    public static func be64(_ v: Int) -> [UInt8] { [56, 48, 40, 32, 24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(payload.count + 8) + ascii(type) + payload }
    static func fullBox(_ type: String, _ payload: [UInt8]) -> [UInt8] { box(type, [0, 0, 0, 0] + payload) }

    /// One GPMF item: key, type, structure size, repeat, then the data padded to 32 bits.
    public static func klv(_ key: String, _ type: Character, size: Int, _ data: [UInt8]) -> [UInt8] {
        let repeatCount = size == 0 ? 0 : data.count / size
        let padding = (4 - data.count % 4) % 4
        return ascii(key) + [type.asciiValue ?? 0, UInt8(size)] + be16(repeatCount) + data + [UInt8](repeating: 0, count: padding)
    }

    /// A nested item (type 0): GoPro writes structure size 1 and the length as the repeat.
    public static func nest(_ key: String, _ items: [UInt8]) -> [UInt8] {
        ascii(key) + [0, 1] + be16(items.count) + items
    }

    /// One GPMF sample with a GPS stream holding `positions` and an accelerometer stream.
    public static func sample(_ positions: [Position], gps9: Bool = false) -> [UInt8] {
        let scales = gps9 ? [10_000_000, 10_000_000, 1000, 1000, 100, 1, 1000, 100, 1] : [10_000_000, 10_000_000, 1000, 1000, 100]
        var gps =
            klv("STMP", "J", size: 8, be64(1_000_000)) + klv("TSMP", "L", size: 4, be32(positions.count))
            + klv("STNM", "c", size: 1, ascii("GPS (Lat., Long., Alt., 2D speed, 3D speed)"))
        if gps9 {
            gps += klv("TYPE", "c", size: 9, ascii("lllllllSS"))
        } else {
            gps +=
                klv("GPSF", "L", size: 4, be32(3)) + klv("GPSU", "U", size: 16, ascii("240615080000.000"))
                + klv("GPSP", "S", size: 2, be16(150))
        }
        gps += klv("UNIT", "c", size: 3, ascii("degdegm\0\0m/sm/s"))
        gps += klv("SCAL", "l", size: 4, scales.flatMap(be32))
        var records: [UInt8] = []
        for p in positions {
            let fields = [
                Int(p.latitude * 10_000_000), Int(p.longitude * 10_000_000), Int(p.altitude * 1000), 1250, 130,
            ]
            records += fields.flatMap(be32)
            if gps9 { records += be32(8932) + be32(28_800_000) + be16(150) + be16(3) }
        }
        gps += gps9 ? klv("GPS9", "?", size: 32, records) : klv("GPS5", "l", size: 20, records)
        let accel =
            klv("STMP", "J", size: 8, be64(1_000_000)) + klv("STNM", "c", size: 1, ascii("Accelerometer"))
            + klv("SCAL", "s", size: 2, be16(418)) + klv("ACCL", "s", size: 6, (0..<12).flatMap { be16($0 * 37) })
        let device =
            klv("DVID", "L", size: 4, be32(1)) + klv("DVNM", "c", size: 1, ascii("Camera")) + nest("STRM", accel) + nest("STRM", gps)
        return nest("DEVC", device)
    }

    /// An MP4 with a GPMF track of `samples` (`ftyp`, `mdat`, then `moov`).
    public static func movie(_ samples: [[UInt8]], table: Table = Table()) -> [UInt8] {
        let ftyp = box("ftyp", ascii("mp41") + be32(0) + ascii("mp41") + ascii("isom"))
        let mdatHeader = table.co64 ? 16 : 8
        let payload = samples.flatMap { $0 }
        let mdat =
            table.co64 ? be32(1) + ascii("mdat") + be64(payload.count + 16) + payload : box("mdat", payload)
        let dataStart = ftyp.count + mdatHeader
        var chunkOffsets: [Int] = []
        var position = dataStart
        for (index, sample) in samples.enumerated() {
            if index % table.samplesPerChunk == 0 { chunkOffsets.append(position) }
            position += sample.count
        }
        let matrix = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000].flatMap(be32)
        let mvhd = fullBox(
            "mvhd",
            be32(3_801_312_000) + be32(3_801_312_000) + be32(1000) + be32(samples.count * 1000) + be32(0x10000) + be16(0x100)
                + [UInt8](repeating: 0, count: 10) + matrix + [UInt8](repeating: 0, count: 24) + be32(2))
        let tkhd = box(
            "tkhd",
            [0, 0, 0, 7] + be32(3_801_312_000) + be32(3_801_312_000) + be32(1) + be32(0) + be32(samples.count * 1000)
                + [UInt8](repeating: 0, count: 8) + be16(0) + be16(0) + be16(0) + be16(0) + matrix + be32(0) + be32(0))
        let mdhd = fullBox(
            "mdhd", be32(3_801_312_000) + be32(3_801_312_000) + be32(1000) + be32(samples.count * 1000) + be16(0x55C4) + be16(0))
        let hdlr = fullBox("hdlr", be32(0) + ascii("meta") + [UInt8](repeating: 0, count: 12) + ascii("GoPro MET\0"))
        let gpmd = box("gpmd", [0, 0, 0, 0, 0, 0] + be16(1))
        let stsd = fullBox("stsd", be32(1) + gpmd)
        let stts = fullBox("stts", be32(1) + be32(samples.count) + be32(1000))
        // One run of full chunks, and a last chunk with the samples left over.
        let leftOver = samples.count % table.samplesPerChunk
        let fullChunks = samples.count / table.samplesPerChunk
        var runs = [be32(1) + be32(table.samplesPerChunk) + be32(1)]
        if leftOver > 0 { runs.append(be32(fullChunks + 1) + be32(leftOver) + be32(1)) }
        if fullChunks == 0 { runs.removeFirst() }
        let stsc = fullBox("stsc", be32(runs.count) + runs.flatMap { $0 })
        let sizes =
            table.stz2
            ? fullBox("stz2", [0, 0, 0, 16] + be32(samples.count) + samples.flatMap { be16($0.count) })
            : fullBox("stsz", be32(0) + be32(samples.count) + samples.flatMap { be32($0.count) })
        let offsets =
            table.co64
            ? fullBox("co64", be32(chunkOffsets.count) + chunkOffsets.flatMap(be64))
            : fullBox("stco", be32(chunkOffsets.count) + chunkOffsets.flatMap(be32))
        let stbl = box("stbl", stsd + stts + stsc + sizes + offsets)
        let dinf = box("dinf", fullBox("dref", be32(1) + box("url ", [0, 0, 0, 1])))
        let minf = box("minf", box("gmhd", []) + dinf + stbl)
        let trak = box("trak", tkhd + box("mdia", mdhd + hdlr + minf))
        return ftyp + mdat + box("moov", mvhd + trak)
    }
}
