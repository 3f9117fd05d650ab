/// What `--metadata private` takes out, format by format. Lists of what goes where the
/// format names its fields (EXIF tags, IPTC datasets); a list of what stays where any
/// writer may add fields (XMP properties, Photoshop resources), so that a field photofs
/// does not know is blanked (fail closed).
enum IdentityTags {
    /// EXIF/TIFF tags removed from every image directory (IFD0, IFD1, EXIF IFD, SubIFDs).
    static let exif: Set<UInt16> = [
        0x010D,  // DocumentName
        0x010E,  // ImageDescription
        0x011D,  // PageName
        0x013B,  // Artist
        0x013C,  // HostComputer
        0x800D,  // ImageID
        0x8298,  // Copyright (the owner's name)
        0x882A,  // TimeZoneOffset
        0x9010, 0x9011, 0x9012,  // OffsetTime, OffsetTimeOriginal, OffsetTimeDigitized
        0x9211,  // ImageNumber
        0x9286,  // UserComment
        0x927C,  // MakerNote (serials, owner, home/world-time cities, face names)
        0xA004,  // RelatedSoundFile (a file name)
        0x9C9B, 0x9C9C, 0x9C9D, 0x9C9E, 0x9C9F,  // XPTitle, XPComment, XPAuthor, XPKeywords, XPSubject
        0xA420,  // ImageUniqueID
        0xA430,  // CameraOwnerName
        0xA431,  // BodySerialNumber
        0xA435,  // LensSerialNumber
        0xA436, 0xA437, 0xA438,  // ImageTitle, Photographer, ImageEditor
        0xC62F,  // CameraSerialNumber (DNG)
        0xC634,  // DNGPrivateData (a copy of the maker note)
        0xC65D,  // RawDataUniqueID
        0xC68B,  // OriginalRawFileName
        0xC68C,  // OriginalRawFileData (the original raw file, with its own metadata)
        0xC7A1,  // CameraLabel
        0xFDE8, 0xFDE9,  // OwnerName, SerialNumber (Panasonic/Sony raw IFD0)
    ]

    /// `exif` as a bit per tag (8 KiB), so that testing an entry costs no hashing.
    private static let exifBits: [UInt64] = {
        var bits = [UInt64](repeating: 0, count: 1 << 10)
        for tag in exif { bits[Int(tag >> 6)] |= 1 << UInt64(tag & 63) }
        return bits
    }()

    /// Whether `tag` is one of `exif`.
    static func isEXIFIdentity(_ tag: UInt16) -> Bool {
        exifBits[Int(tag >> 6)] & (1 << UInt64(tag & 63)) != 0
    }

    /// IPTC-IIM application record (2) datasets blanked: object name (title), keywords,
    /// instructions, reference, times with their UTC offsets, by-line and its title,
    /// headline, credit, source, copyright, contact, caption, writer, the categories
    /// (free text) and the document history.
    static let iptcDatasets: Set<UInt8> = [
        5, 15, 20, 25, 35, 40, 60, 63, 80, 85, 103, 105, 110, 115, 116, 118, 120, 122, 231,
    ]
    /// `iptcDatasets` and the place names (`IPTCLocationRedactor.locationDatasets`): what a
    /// private plan that also hides location blanks.
    static let iptcAndLocationDatasets = iptcDatasets.union(IPTCLocationRedactor.locationDatasets)
    /// IPTC-IIM envelope record (1) datasets blanked: destination, time sent (with its UTC
    /// offset) and the unique name of the object.
    static let iptcEnvelopeDatasets: Set<UInt8> = [5, 80, 100]

    /// Photoshop image resources kept (every other resource gets id 0 and zero data):
    /// resolution, IPTC (its identity datasets blanked), JPEG quality, the thumbnail,
    /// the ICC profile and the IPTC digest.
    static let photoshopResources: Set<UInt16> = [0x03ED, 0x0404, 0x0406, 0x0409, 0x040C, 0x040F, 0x0425]

    /// XMP properties kept, by namespace URI then local name: orientation, capture and
    /// change dates, make/model/lens, exposure, dimensions, colour. Location properties
    /// are kept here and left to the location policy. Everything else is blanked.
    static let xmpKept: [String: Set<String>] = [
        "http://ns.adobe.com/tiff/1.0/": [
            "Orientation", "Make", "Model", "ImageWidth", "ImageLength", "BitsPerSample", "Compression", "PhotometricInterpretation",
            "SamplesPerPixel", "PlanarConfiguration", "YCbCrSubSampling", "YCbCrPositioning", "XResolution", "YResolution",
            "ResolutionUnit", "DateTime",
        ],
        "http://ns.adobe.com/exif/1.0/": [
            "ExifVersion", "FlashpixVersion", "ColorSpace", "PixelXDimension", "PixelYDimension", "DateTimeOriginal",
            "DateTimeDigitized", "ExposureTime", "FNumber", "ExposureProgram", "ISOSpeedRatings", "PhotographicSensitivity",
            "ShutterSpeedValue", "ApertureValue", "BrightnessValue", "ExposureBiasValue", "MaxApertureValue", "MeteringMode",
            "LightSource", "Flash", "FocalLength", "FocalLengthIn35mmFilm", "ExposureMode", "WhiteBalance", "DigitalZoomRatio",
            "SceneCaptureType", "SceneType", "SensingMethod", "FileSource", "Contrast", "Saturation", "Sharpness",
            "SubjectDistanceRange", "SubjectDistance", "GainControl", "CustomRendered", "SensitivityType",
            "RecommendedExposureIndex", "FocalPlaneXResolution", "FocalPlaneYResolution", "FocalPlaneResolutionUnit",
            "ComponentsConfiguration", "CompressedBitsPerPixel", "ExposureIndex",
        ],
        "http://cipa.jp/exif/1.0/": [
            "LensMake", "LensModel", "LensSpecification", "PhotographicSensitivity", "SensitivityType", "RecommendedExposureIndex",
        ],
        "http://ns.adobe.com/exif/1.0/aux/": ["Lens", "LensInfo", "LensID", "FlashCompensation"],
        "http://ns.adobe.com/xap/1.0/": ["CreateDate", "ModifyDate"],
        // The digest tying the packet to its extended part (not about the photo).
        "http://ns.adobe.com/xmp/note/": ["HasExtendedXMP"],
        "http://ns.adobe.com/photoshop/1.0/": [
            "DateCreated", "ColorMode", "ICCProfile", "City", "State", "Country",
        ],
        "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/": ["Location", "CountryCode"],
        "http://iptc.org/std/Iptc4xmpExt/2008-02-29/": ["LocationCreated", "LocationShown"],
    ]

    /// XMP date properties whose value may end in a UTC offset, which private drops.
    static let xmpDates: Set<String> = ["DateTimeOriginal", "DateTimeDigitized", "CreateDate", "ModifyDate", "DateCreated", "DateTime"]
}

extension IdentityTags {
    /// QuickTime user-data atoms (`udta` children) kept by `--metadata private`: camera
    /// make and model, the capture date, the location atoms (which the location policy
    /// decides), XMP (blanked property by property) and `meta` (whose items are sorted one
    /// by one). Every other atom (author, comment, title, keywords, serials, maker boxes)
    /// becomes `free` with its bytes zeroed.
    static let movieUserDataKept: Set<String> = [
        "\u{A9}mak", "\u{A9}mod", "\u{A9}day", "\u{A9}xyz", "loci", "gps ", "gps0", "XMP_", "meta",
    ]
    /// `meta` children kept: the handler, the key table and the item list (sorted item by item).
    static let movieMetaKept: Set<String> = ["hdlr", "keys", "ilst", "free", "skip"]
    /// `ilst` items kept, by their `mdta` key or their atom type: make, model, capture date
    /// and the location (decided by the location policy). Other items lose their key (index
    /// 0 names none) and their value.
    static let movieItemsKept: Set<String> = [
        "com.apple.quicktime.make", "com.apple.quicktime.model", "com.apple.quicktime.creationdate",
        "com.apple.quicktime.location.ISO6709", "\u{A9}mak", "\u{A9}mod", "\u{A9}day", "\u{A9}xyz",
    ]
    /// GIF application extensions kept: looping (`NETSCAPE2.0`, `ANIMEXTS1.0`), XMP (blanked
    /// property by property) and the ICC colour profile.
    static let gifApplicationsKept: Set<String> = ["NETSCAPE2.0", "ANIMEXTS1.0", "XMP DataXMP", "ICCRGBG1012"]
    /// AVI `INFO` text chunks kept: the creation date. The others (title, artist, comments,
    /// software, keywords) become `JUNK`.
    static let aviInfoKept: Set<String> = ["ICRD"]
}
