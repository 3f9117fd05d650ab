/// The EXIF tag numbers photofs reads. libexif's GPS tag numbers are C macros that do not
/// import into Swift, so all of them are spelled out here.
enum EXIFTag {
    // IFD0 (and IFD1).
    static let imageWidth: UInt16 = 0x0100
    static let imageLength: UInt16 = 0x0101
    static let imageDescription: UInt16 = 0x010E
    static let make: UInt16 = 0x010F
    static let model: UInt16 = 0x0110
    static let orientation: UInt16 = 0x0112
    static let software: UInt16 = 0x0131
    static let dateTime: UInt16 = 0x0132

    // Exif IFD.
    static let dateTimeOriginal: UInt16 = 0x9003
    static let dateTimeDigitized: UInt16 = 0x9004
    static let offsetTime: UInt16 = 0x9010
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let offsetTimeDigitized: UInt16 = 0x9012
    static let userComment: UInt16 = 0x9286
    static let pixelXDimension: UInt16 = 0xA002
    static let pixelYDimension: UInt16 = 0xA003
    static let lensModel: UInt16 = 0xA434

    // GPS IFD.
    static let gpsLatitudeRef: UInt16 = 0x0001
    static let gpsLatitude: UInt16 = 0x0002
    static let gpsLongitudeRef: UInt16 = 0x0003
    static let gpsLongitude: UInt16 = 0x0004
    static let gpsAltitudeRef: UInt16 = 0x0005
    static let gpsAltitude: UInt16 = 0x0006
}
