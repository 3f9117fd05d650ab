/// The EXIF/TIFF tag numbers the synthesiser writes, by the name exiftool uses.
public enum ExifTag {
    // IFD0
    public static let make: UInt16 = 0x010F
    public static let model: UInt16 = 0x0110
    public static let orientation: UInt16 = 0x0112
    public static let xResolution: UInt16 = 0x011A
    public static let yResolution: UInt16 = 0x011B
    public static let resolutionUnit: UInt16 = 0x0128
    public static let software: UInt16 = 0x0131
    public static let modifyDate: UInt16 = 0x0132
    public static let yCbCrPositioning: UInt16 = 0x0213
    public static let exifIFDPointer: UInt16 = 0x8769
    public static let gpsIFDPointer: UInt16 = 0x8825
    // ExifIFD
    public static let exifVersion: UInt16 = 0x9000
    public static let dateTimeOriginal: UInt16 = 0x9003
    public static let createDate: UInt16 = 0x9004
    public static let offsetTime: UInt16 = 0x9010
    public static let offsetTimeOriginal: UInt16 = 0x9011
    public static let componentsConfiguration: UInt16 = 0x9101
    public static let userComment: UInt16 = 0x9286
    public static let flashpixVersion: UInt16 = 0xA000
    public static let colorSpace: UInt16 = 0xA001
    public static let pixelXDimension: UInt16 = 0xA002
    public static let pixelYDimension: UInt16 = 0xA003
    public static let lensMake: UInt16 = 0xA433
    public static let lensModel: UInt16 = 0xA434
    // GPS IFD
    public static let gpsVersionID: UInt16 = 0x0000
    public static let gpsLatitudeRef: UInt16 = 0x0001
    public static let gpsLatitude: UInt16 = 0x0002
    public static let gpsLongitudeRef: UInt16 = 0x0003
    public static let gpsLongitude: UInt16 = 0x0004
    public static let gpsAltitudeRef: UInt16 = 0x0005
    public static let gpsAltitude: UInt16 = 0x0006
}
