/// The camera and software texts of a file (make, model, lens, software), held once and
/// shared by every asset that has the same ones: a library has a few dozen cameras, so an
/// asset holds one reference here instead of four optional strings (64 bytes).
/// Immutable; compared and hashed by value.
public final class CameraTexts: Hashable, Sendable {
    public let make: String?
    public let model: String?
    public let lens: String?
    public let software: String?

    /// No texts at all: what most screenshots, videos and scans have.
    public static let none = CameraTexts(make: nil, model: nil, lens: nil, software: nil)

    public init(make: String?, model: String?, lens: String?, software: String?) {
        self.make = make
        self.model = model
        self.lens = lens
        self.software = software
    }

    /// The shared `.none` when every text is missing, else new texts.
    static func of(make: String?, model: String?, lens: String?, software: String?) -> CameraTexts {
        if make == nil, model == nil, lens == nil, software == nil { return .none }
        return CameraTexts(make: make, model: model, lens: lens, software: software)
    }

    public static func == (a: CameraTexts, b: CameraTexts) -> Bool {
        a === b || (a.make == b.make && a.model == b.model && a.lens == b.lens && a.software == b.software)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(make)
        hasher.combine(model)
        hasher.combine(lens)
        hasher.combine(software)
    }
}
