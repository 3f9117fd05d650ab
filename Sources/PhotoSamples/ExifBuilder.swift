import MediaFormats

/// What a synthetic photo's EXIF says. Every field is optional; `extra…` entries are
/// added as they are (fixtures for odd or hostile files), after the standard ones.
public struct ExifFields: Sendable, Hashable {
    public var make: String?
    public var model: String?
    public var orientation: UInt16?
    public var software: String?
    /// DateTimeOriginal and CreateDate (ExifIFD) and ModifyDate (IFD0); its UTC offset,
    /// when set, becomes OffsetTimeOriginal and OffsetTime.
    public var taken: CaptureDate?
    public var pixelWidth: UInt32?
    public var pixelHeight: UInt32?
    public var lensModel: String?
    /// Written as GPS latitude/longitude (degrees, minutes, seconds to 1e-4 s) and
    /// altitude (to the centimetre).
    public var location: GeoLocation?
    public var extraIFD0: [TIFFBuilderEntry]
    public var extraExif: [TIFFBuilderEntry]
    public var extraGPS: [TIFFBuilderEntry]

    public init(
        make: String? = nil, model: String? = nil, orientation: UInt16? = nil, software: String? = nil, taken: CaptureDate? = nil,
        pixelWidth: UInt32? = nil, pixelHeight: UInt32? = nil, lensModel: String? = nil, location: GeoLocation? = nil,
        extraIFD0: [TIFFBuilderEntry] = [], extraExif: [TIFFBuilderEntry] = [], extraGPS: [TIFFBuilderEntry] = []
    ) {
        self.make = make
        self.model = model
        self.orientation = orientation
        self.software = software
        self.taken = taken
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.lensModel = lensModel
        self.location = location
        self.extraIFD0 = extraIFD0
        self.extraExif = extraExif
        self.extraGPS = extraGPS
    }
}

/// Builds the TIFF-structured EXIF block of a photo the way a camera lays it out: IFD0
/// with the camera and pointers, the ExifIFD with dates and dimensions, the GPS IFD.
public struct ExifBuilder: Sendable {
    public var byteOrder: TIFFByteOrder

    public init(byteOrder: TIFFByteOrder = .littleEndian) {
        self.byteOrder = byteOrder
    }

    /// The directories for `fields`, for callers that want to change them before writing.
    public func directories(_ fields: ExifFields) -> TIFFBuilderDirectory {
        var ifd0 = TIFFBuilderDirectory()
        if let make = fields.make { ifd0.add(EXIFTag.make, .ascii(make)) }
        if let model = fields.model { ifd0.add(EXIFTag.model, .ascii(model)) }
        if let orientation = fields.orientation { ifd0.add(EXIFTag.orientation, .short([orientation])) }
        ifd0.add(EXIFTag.xResolution, .rational([TIFFRational(72, 1)]))
        ifd0.add(EXIFTag.yResolution, .rational([TIFFRational(72, 1)]))
        ifd0.add(EXIFTag.resolutionUnit, .short([2]))
        if let software = fields.software { ifd0.add(EXIFTag.software, .ascii(software)) }
        if let taken = fields.taken { ifd0.add(EXIFTag.dateTime, .ascii(Self.exifDate(taken))) }
        ifd0.add(EXIFTag.yCbCrPositioning, .short([1]))
        ifd0.entries += fields.extraIFD0

        var exif = TIFFBuilderDirectory()
        exif.add(EXIFTag.exifVersion, .undefined(Array("0232".utf8)))
        if let taken = fields.taken {
            exif.add(EXIFTag.dateTimeOriginal, .ascii(Self.exifDate(taken)))
            exif.add(EXIFTag.dateTimeDigitized, .ascii(Self.exifDate(taken)))
            if let offset = taken.utcOffsetMinutes {
                exif.add(EXIFTag.offsetTime, .ascii(Self.offsetText(offset)))
                exif.add(EXIFTag.offsetTimeOriginal, .ascii(Self.offsetText(offset)))
            }
        }
        exif.add(EXIFTag.componentsConfiguration, .undefined([1, 2, 3, 0]))
        exif.add(EXIFTag.flashpixVersion, .undefined(Array("0100".utf8)))
        exif.add(EXIFTag.colorSpace, .short([1]))
        if let width = fields.pixelWidth { exif.add(EXIFTag.pixelXDimension, .long([width])) }
        if let height = fields.pixelHeight { exif.add(EXIFTag.pixelYDimension, .long([height])) }
        if let lens = fields.lensModel { exif.add(EXIFTag.lensModel, .ascii(lens)) }
        exif.entries += fields.extraExif
        ifd0.subdirectories.append(TIFFBuilderSubdirectory(tag: EXIFTag.exifIFD, directory: exif))

        var gps = TIFFBuilderDirectory()
        if let location = fields.location {
            gps.add(EXIFTag.gpsVersionID, .byte([2, 3, 0, 0]))
            gps.add(EXIFTag.gpsLatitudeRef, .ascii(location.latitude < 0 ? "S" : "N"))
            gps.add(EXIFTag.gpsLatitude, .rational(Self.degreesMinutesSeconds(location.latitude)))
            gps.add(EXIFTag.gpsLongitudeRef, .ascii(location.longitude < 0 ? "W" : "E"))
            gps.add(EXIFTag.gpsLongitude, .rational(Self.degreesMinutesSeconds(location.longitude)))
            if let altitude = location.altitude, altitude.isFinite {
                gps.add(EXIFTag.gpsAltitudeRef, .byte([altitude < 0 ? 1 : 0]))
                let centimetres = min((abs(altitude) * 100).rounded(), Double(UInt32.max))
                gps.add(EXIFTag.gpsAltitude, .rational([TIFFRational(UInt32(centimetres), 100)]))
            }
        }
        gps.entries += fields.extraGPS
        if !gps.entries.isEmpty {
            ifd0.subdirectories.append(TIFFBuilderSubdirectory(tag: EXIFTag.gpsIFD, directory: gps))
        }
        return ifd0
    }

    /// The TIFF block for `fields`.
    public func build(_ fields: ExifFields) -> TIFFBlock {
        TIFFBuilder(byteOrder: byteOrder).build([directories(fields)])
    }

    /// `YYYY:MM:DD HH:MM:SS`, the EXIF date form.
    public static func exifDate(_ date: CaptureDate) -> String {
        "\(digits(date.year, 4)):\(digits(date.month)):\(digits(date.day)) \(digits(date.hour)):\(digits(date.minute)):\(digits(date.second))"
    }

    /// `+HH:MM`, the EXIF 2.31 offset form.
    public static func offsetText(_ minutes: Int) -> String {
        (minutes < 0 ? "-" : "+") + digits(abs(minutes) / 60) + ":" + digits(abs(minutes) % 60)
    }

    /// |degrees| as degrees/1, minutes/1, seconds/10000: exact to about 3 mm.
    public static func degreesMinutesSeconds(_ degrees: Double) -> [TIFFRational] {
        let magnitude = degrees.isFinite ? min(abs(degrees), 180) : 0
        // Work in whole ten-thousandths of an arcsecond so no carry can give 60 seconds.
        let units = UInt64((magnitude * 3600 * 10_000).rounded())
        let whole = UInt32(units / 36_000_000)
        let rest = units % 36_000_000
        let minutes = UInt32(rest / 600_000)
        let seconds = UInt32(rest % 600_000)
        return [TIFFRational(whole, 1), TIFFRational(minutes, 1), TIFFRational(seconds, 10_000)]
    }
}

/// `value` in decimal, zero-padded to `width` digits.
func digits(_ value: Int, _ width: Int = 2) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
}
