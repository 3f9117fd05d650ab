import MediaFormats

/// What photofs knows about one file's content, read at index time.
///
/// Kept compact (64 bytes, no heap of its own for the common file): a library of a million
/// assets holds one per asset. The capture date is packed into one word, the sizes into 32-bit
/// fields and the orientation into 8 bits, the location into three doubles with a flag; what does
/// not fit those forms (a year past 9999, a width past 2^31, a clock offset of days), and
/// the problems of the few files that have any, go to `Unpacked`, a rare box, so nothing is lost. The public properties are the same as for
/// a plain struct of optionals.
public struct MediaMetadata: Hashable, Sendable {
    // Stored widest first: Swift lays fields out in declaration order.

    /// Make, model, lens and software, shared between assets (see `CameraTexts`).
    public var texts: CameraTexts
    /// `PackedDate` of the capture date; 0 when there is none or it is in `unpacked`.
    private var packedDate: UInt64
    private var latitude: Double
    private var longitude: Double
    private var altitude: Double
    /// What does not fit the packed fields, nil for nearly every file.
    private var unpacked: Unpacked?
    /// Every place the file carries a location (`has:location` is true when not empty).
    public var locationSources: LocationSources
    /// `Int32.min`: none, or held in `unpacked`.
    private var packedWidth: Int32
    private var packedHeight: Int32
    /// `Int8.min`: none, or held in `unpacked`.
    private var packedOrientation: Int8
    public var format: MediaFormat
    /// Which tag or fallback `captureDate` came from (`fileModification` when nothing else).
    public var dateSource: DateSource
    private var flags: Flags

    public init(
        format: MediaFormat, captureDate: CaptureDate? = nil, dateSource: DateSource = .fileModification, make: String? = nil,
        model: String? = nil, lens: String? = nil, orientation: Int? = nil, width: Int? = nil, height: Int? = nil,
        location: GeoLocation? = nil, locationSources: LocationSources = [], hasExif: Bool = false, software: String? = nil,
        saysScreenshot: Bool = false, problems: [String] = []
    ) {
        self.format = format
        self.dateSource = dateSource
        self.texts = .of(make: make, model: model, lens: lens, software: software)
        self.locationSources = locationSources
        flags = []
        packedDate = 0
        latitude = 0
        longitude = 0
        altitude = 0
        packedOrientation = Int8.min
        packedWidth = Int32.min
        packedHeight = Int32.min
        unpacked = nil
        self.captureDate = captureDate
        self.orientation = orientation
        self.width = width
        self.height = height
        self.location = location
        self.hasExif = hasExif
        self.saysScreenshot = saysScreenshot
        self.problems = problems
    }

    public var make: String? {
        get { texts.make }
        set { texts = .of(make: newValue, model: texts.model, lens: texts.lens, software: texts.software) }
    }
    public var model: String? {
        get { texts.model }
        set { texts = .of(make: texts.make, model: newValue, lens: texts.lens, software: texts.software) }
    }
    public var lens: String? {
        get { texts.lens }
        set { texts = .of(make: texts.make, model: texts.model, lens: newValue, software: texts.software) }
    }
    /// EXIF Software or an XMP creator tool, used to recognise screenshots.
    public var software: String? {
        get { texts.software }
        set { texts = .of(make: texts.make, model: texts.model, lens: texts.lens, software: newValue) }
    }

    /// Reasons for anything missing or suspicious, for `photofs show`. Held in the rare box:
    /// most files have none, and a word per asset for an empty list is 8 MB at a million.
    public var problems: [String] {
        get { unpacked?.values.problems ?? [] }
        set { if newValue != (unpacked?.values.problems ?? []) { updateUnpacked { $0.problems = newValue } } }
    }

    /// When the photo was taken, as the file says.
    public var captureDate: CaptureDate? {
        get { packedDate != 0 ? PackedDate.unpack(packedDate) : unpacked?.captureDate }
        set {
            if let date = newValue, let packed = PackedDate.pack(date) {
                packedDate = packed
                if unpacked?.captureDate != nil { updateUnpacked { $0.captureDate = nil } }
            } else {
                packedDate = 0
                if newValue != unpacked?.captureDate { updateUnpacked { $0.captureDate = newValue } }
            }
        }
    }

    /// The EXIF orientation, 1...8, when present.
    public var orientation: Int? {
        get { packedOrientation == Int8.min ? unpacked?.orientation : Int(packedOrientation) }
        set {
            let narrow = newValue.flatMap { Int8(exactly: $0) }.flatMap { $0 == Int8.min ? nil : $0 }
            packedOrientation = narrow ?? Int8.min
            let spilled = narrow == nil ? newValue : nil
            if spilled != unpacked?.orientation { updateUnpacked { $0.orientation = spilled } }
        }
    }
    public var width: Int? {
        get { packedWidth == Int32.min ? unpacked?.width : Int(packedWidth) }
        set {
            let narrow = Self.narrow(newValue)
            packedWidth = narrow ?? Int32.min
            let spilled = narrow == nil ? newValue : nil
            if spilled != unpacked?.width { updateUnpacked { $0.width = spilled } }
        }
    }
    public var height: Int? {
        get { packedHeight == Int32.min ? unpacked?.height : Int(packedHeight) }
        set {
            let narrow = Self.narrow(newValue)
            packedHeight = narrow ?? Int32.min
            let spilled = narrow == nil ? newValue : nil
            if spilled != unpacked?.height { updateUnpacked { $0.height = spilled } }
        }
    }

    /// The position the file's EXIF GPS block gives, when it has one.
    public var location: GeoLocation? {
        get {
            guard flags.contains(.location) else { return nil }
            return GeoLocation(latitude: latitude, longitude: longitude, altitude: flags.contains(.altitude) ? altitude : nil)
        }
        set {
            flags.remove([.location, .altitude])
            latitude = newValue?.latitude ?? 0
            longitude = newValue?.longitude ?? 0
            altitude = newValue?.altitude ?? 0
            if newValue != nil { flags.insert(.location) }
            if newValue?.altitude != nil { flags.insert(.altitude) }
        }
    }

    /// Whether an EXIF block was found and parsed.
    public var hasExif: Bool {
        get { flags.contains(.hasExif) }
        set { if newValue { flags.insert(.hasExif) } else { flags.remove(.hasExif) } }
    }

    /// The EXIF UserComment / image description says "Screenshot" (Android, iOS).
    public var saysScreenshot: Bool {
        get { flags.contains(.saysScreenshot) }
        set { if newValue { flags.insert(.saysScreenshot) } else { flags.remove(.saysScreenshot) } }
    }

    /// Width × height in millions of pixels, when both are known.
    public var megapixels: Double? {
        guard let w = width, let h = height else { return nil }
        return Double(w) * Double(h) / 1_000_000
    }

    /// Compared and hashed by what the properties say, whichever form holds it.
    public static func == (a: MediaMetadata, b: MediaMetadata) -> Bool {
        a.format == b.format && a.dateSource == b.dateSource && a.texts == b.texts && a.locationSources == b.locationSources
            && a.flags == b.flags && a.packedDate == b.packedDate
            && a.packedOrientation == b.packedOrientation && a.packedWidth == b.packedWidth && a.packedHeight == b.packedHeight
            && a.location == b.location && a.unpacked == b.unpacked
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(format)
        hasher.combine(dateSource)
        hasher.combine(texts)
        hasher.combine(locationSources)
        hasher.combine(flags.rawValue)
        hasher.combine(packedDate)
        hasher.combine(packedOrientation)
        hasher.combine(packedWidth)
        hasher.combine(packedHeight)
        hasher.combine(location)
        hasher.combine(unpacked)
    }

    // MARK: packing

    private struct Flags: OptionSet, Hashable, Sendable {
        let rawValue: UInt8
        static let hasExif = Flags(rawValue: 1 << 0)
        static let saysScreenshot = Flags(rawValue: 1 << 1)
        static let location = Flags(rawValue: 1 << 2)
        static let altitude = Flags(rawValue: 1 << 3)
    }

    /// The 32-bit form of `value`, nil when it has none (then `unpacked` keeps it). Written
    /// out per field, without key paths or generics: the catalog read sets them a million
    /// times.
    private static func narrow(_ value: Int?) -> Int32? {
        guard let value, let narrow = Int32(exactly: value), narrow != Int32.min else { return nil }
        return narrow
    }

    /// Changes the unpacked values, dropping the box when nothing is left in it.
    private mutating func updateUnpacked(_ change: (inout Unpacked.Values) -> Void) {
        var values = unpacked?.values ?? Unpacked.Values()
        change(&values)
        if values == Unpacked.Values() {
            if unpacked != nil { unpacked = nil }
        } else if values != unpacked?.values {
            unpacked = Unpacked(values)
        }
    }
}

/// The values of a `MediaMetadata` that its packed fields cannot hold. Immutable, compared
/// by value.
private final class Unpacked: Hashable, Sendable {
    struct Values: Hashable, Sendable {
        var captureDate: CaptureDate?
        var orientation: Int?
        var width: Int?
        var height: Int?
        var problems: [String] = []
    }

    let values: Values

    init(_ values: Values) { self.values = values }

    var captureDate: CaptureDate? { values.captureDate }
    var orientation: Int? { values.orientation }
    var width: Int? { values.width }
    var height: Int? { values.height }

    static func == (a: Unpacked, b: Unpacked) -> Bool { a === b || a.values == b.values }

    func hash(into hasher: inout Hasher) { hasher.combine(values) }
}

/// A capture date in one word: the low 47 bits hold its `sortKey` (YYYYMMDDHHMMSS, years
/// 1...9999), the high 17 the UTC offset in minutes plus 2048 (0: no offset). 0 is no date.
enum PackedDate {
    private static let keyBits: UInt64 = 47
    private static let keyMask: UInt64 = (1 << 47) - 1

    /// The packed form, or nil when a field is outside what it holds.
    static func pack(_ date: CaptureDate) -> UInt64? {
        guard (1...9999).contains(date.year), (1...12).contains(date.month), (1...31).contains(date.day), (0...23).contains(date.hour),
            (0...59).contains(date.minute), (0...60).contains(date.second)
        else { return nil }
        var offsetCode: UInt64 = 0
        if let offset = date.utcOffsetMinutes {
            guard (-2047...2047).contains(offset) else { return nil }
            offsetCode = UInt64(offset + 2048)
        }
        return UInt64(date.sortKey) | offsetCode << keyBits
    }

    static func unpack(_ packed: UInt64) -> CaptureDate {
        let key = Int(packed & keyMask)
        let offsetCode = Int(packed >> keyBits)
        return CaptureDate(
            year: key / 10_000_000_000, month: key / 100_000_000 % 100, day: key / 1_000_000 % 100, hour: key / 10_000 % 100,
            minute: key / 100 % 100, second: key % 100, utcOffsetMinutes: offsetCode == 0 ? nil : offsetCode - 2048)
    }
}
