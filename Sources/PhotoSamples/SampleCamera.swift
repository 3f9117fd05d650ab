import MediaFormats

/// A camera that sample photos claim to come from: what it writes in EXIF and how it
/// names its files.
public struct SampleCamera: Sendable, Hashable {
    /// How a camera names files.
    public enum Naming: Sendable, Hashable {
        /// `PREFIX` + four-digit counter + extension (`IMG_0001.jpg`, `DSC_0001.JPG`).
        case counter(prefix: String, fileExtension: String)
        /// `PXL_YYYYMMDD_HHMMSSmmm.jpg` (Google Pixel).
        case pixel
        /// `YYYYMMDD_HHMMSS.jpg` (Samsung).
        case dateTime
    }

    public var make: String
    public var model: String
    public var software: String?
    public var lens: String?
    public var byteOrder: TIFFByteOrder
    public var naming: Naming
    /// Whether it writes OffsetTimeOriginal (newer cameras and phones do).
    public var writesOffset: Bool
    /// How often its photos carry GPS.
    public var gpsRate: Double
    public var isPhone: Bool

    /// The cameras sample libraries use: old and new DSLRs, mirrorless, phones; both byte
    /// orders.
    public static let all: [SampleCamera] = [canonEOS40D, iPhone13, pixel7, nikonD70, canon5DMarkIV, sonyA7III, fujiXT3, galaxyS21]

    public static let canonEOS40D = SampleCamera(
        make: "Canon", model: "Canon EOS 40D", software: "Firmware 1.1.1", lens: "EF-S17-85mm f/4-5.6 IS USM", byteOrder: .littleEndian,
        naming: .counter(prefix: "IMG_", fileExtension: ".jpg"), writesOffset: false, gpsRate: 0.1, isPhone: false)
    public static let iPhone13 = SampleCamera(
        make: "Apple", model: "iPhone 13", software: "16.1", lens: "iPhone 13 back dual wide camera 5.1mm f/1.6", byteOrder: .bigEndian,
        naming: .counter(prefix: "IMG_", fileExtension: ".jpg"), writesOffset: true, gpsRate: 0.85, isPhone: true)
    public static let pixel7 = SampleCamera(
        make: "Google", model: "Pixel 7", software: "HDR+ 1.0.540104767zd", lens: nil, byteOrder: .littleEndian, naming: .pixel,
        writesOffset: true, gpsRate: 0.8, isPhone: true)
    public static let nikonD70 = SampleCamera(
        make: "NIKON CORPORATION", model: "NIKON D70", software: "Ver.2.00", lens: nil, byteOrder: .bigEndian,
        naming: .counter(prefix: "DSC_", fileExtension: ".JPG"), writesOffset: false, gpsRate: 0.05, isPhone: false)
    public static let canon5DMarkIV = SampleCamera(
        make: "Canon", model: "Canon EOS 5D Mark IV", software: "Firmware Version 1.2.0", lens: "EF24-105mm f/4L IS II USM",
        byteOrder: .littleEndian, naming: .counter(prefix: "IMG_", fileExtension: ".JPG"), writesOffset: true, gpsRate: 0.4, isPhone: false)
    public static let sonyA7III = SampleCamera(
        make: "SONY", model: "ILCE-7M3", software: "ILCE-7M3 v3.01", lens: "FE 24-70mm F2.8 GM", byteOrder: .littleEndian,
        naming: .counter(prefix: "DSC0", fileExtension: ".JPG"), writesOffset: true, gpsRate: 0.2, isPhone: false)
    public static let fujiXT3 = SampleCamera(
        make: "FUJIFILM", model: "X-T3", software: "Digital Camera X-T3 Ver4.00", lens: "XF18-55mmF2.8-4 R LM OIS",
        byteOrder: .littleEndian,
        naming: .counter(prefix: "DSCF", fileExtension: ".JPG"), writesOffset: false, gpsRate: 0.1, isPhone: false)
    public static let galaxyS21 = SampleCamera(
        make: "samsung", model: "SM-G991B", software: "G991BXXU5CVLL", lens: nil, byteOrder: .littleEndian, naming: .dateTime,
        writesOffset: true, gpsRate: 0.7, isPhone: true)
}

/// A place sample photos are taken at (well-known public landmarks), with its altitude and
/// UTC offset in minutes.
struct SamplePlace: Sendable {
    let latitude: Double
    let longitude: Double
    let altitude: Double
    let utcOffsetMinutes: Int

    /// Both hemispheres of both axes, and one place below sea level.
    static let all: [SamplePlace] = [
        SamplePlace(latitude: 48.858370, longitude: 2.294481, altitude: 35, utcOffsetMinutes: 120),
        SamplePlace(latitude: 38.713909, longitude: -9.133476, altitude: 62, utcOffsetMinutes: 60),
        SamplePlace(latitude: 45.923697, longitude: 6.869433, altitude: 1035, utcOffsetMinutes: 120),
        SamplePlace(latitude: 40.758000, longitude: -73.985500, altitude: 15, utcOffsetMinutes: -240),
        SamplePlace(latitude: 35.659500, longitude: 139.700500, altitude: 40, utcOffsetMinutes: 540),
        SamplePlace(latitude: -33.924900, longitude: 18.424100, altitude: 20, utcOffsetMinutes: 120),
        SamplePlace(latitude: -33.856800, longitude: 151.215300, altitude: 5, utcOffsetMinutes: 600),
        SamplePlace(latitude: 64.146600, longitude: -21.942600, altitude: 30, utcOffsetMinutes: 0),
        SamplePlace(latitude: -22.951900, longitude: -43.210500, altitude: 700, utcOffsetMinutes: -180),
        SamplePlace(latitude: 31.559000, longitude: 35.473200, altitude: -430, utcOffsetMinutes: 180),
        SamplePlace(latitude: 52.516300, longitude: 13.377700, altitude: 34, utcOffsetMinutes: 60),
        SamplePlace(latitude: 47.376900, longitude: 8.541700, altitude: 408, utcOffsetMinutes: 60),
    ]
}
