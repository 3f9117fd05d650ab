import MediaFormats

/// What photofs knows about one file's content, read at index time.
public struct MediaMetadata: Hashable, Sendable {
    public var format: MediaFormat
    public var captureDate: CaptureDate?
    /// Which tag or fallback `captureDate` came from (`fileModification` when nothing else).
    public var dateSource: DateSource
    /// Make, model, lens and software, shared between assets (see `CameraTexts`).
    public var texts: CameraTexts
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
    /// The EXIF orientation, 1...8, when present.
    public var orientation: Int?
    public var width: Int?
    public var height: Int?
    public var location: GeoLocation?
    /// Every place the file carries a location (`has:location` is true when not empty).
    public var locationSources: LocationSources
    /// Whether an EXIF block was found and parsed.
    public var hasExif: Bool
    /// EXIF Software or an XMP creator tool, used to recognise screenshots.
    public var software: String? {
        get { texts.software }
        set { texts = .of(make: texts.make, model: texts.model, lens: texts.lens, software: newValue) }
    }
    /// The EXIF UserComment / image description says "Screenshot" (Android, iOS).
    public var saysScreenshot: Bool
    /// Reasons for anything missing or suspicious, for `photofs show`.
    public var problems: [String]

    public init(
        format: MediaFormat, captureDate: CaptureDate? = nil, dateSource: DateSource = .fileModification, make: String? = nil,
        model: String? = nil, lens: String? = nil, orientation: Int? = nil, width: Int? = nil, height: Int? = nil,
        location: GeoLocation? = nil, locationSources: LocationSources = [], hasExif: Bool = false, software: String? = nil,
        saysScreenshot: Bool = false, problems: [String] = []
    ) {
        self.format = format
        self.captureDate = captureDate
        self.dateSource = dateSource
        self.texts = .of(make: make, model: model, lens: lens, software: software)
        self.orientation = orientation
        self.width = width
        self.height = height
        self.location = location
        self.locationSources = locationSources
        self.hasExif = hasExif
        self.saysScreenshot = saysScreenshot
        self.problems = problems
    }

    /// Width × height in millions of pixels, when both are known.
    public var megapixels: Double? {
        guard let w = width, let h = height else { return nil }
        return Double(w) * Double(h) / 1_000_000
    }
}
