extension FilterExpression {
    /// Whether the asset passes this filter.
    public func matches(_ asset: Asset) -> Bool {
        switch self {
        case .and(let operands): operands.allSatisfy { $0.matches(asset) }
        case .or(let operands): operands.contains { $0.matches(asset) }
        case .not(let operand): !operand.matches(asset)
        case .term(let term): term.matches(asset)
        }
    }
}

extension FilterTerm {
    /// Whether the asset passes this one test. An asset that lacks the field a term looks
    /// at (no width, no make, ...) never passes the term, and so always passes its negation.
    public func matches(_ asset: Asset) -> Bool {
        let metadata = asset.metadata
        switch self {
        case .type(let type):
            return type.matches(asset)
        case .taken(let comparison):
            return comparison.matchesDate(asset.effectiveDate.sortKey)
        case .make(let text):
            return metadata.make.map { $0.lowercased().contains(text) } ?? false
        case .model(let text):
            return metadata.model.map { $0.lowercased().contains(text) } ?? false
        case .lens(let text):
            return metadata.lens.map { $0.lowercased().contains(text) } ?? false
        case .camera(let text):
            let make = metadata.make.map(trimmed) ?? ""
            let model = metadata.model.map(trimmed) ?? ""
            if make.isEmpty && model.isEmpty { return false }
            return make.lowercased().contains(text) || model.lowercased().contains(text)
                || (make + " " + model).lowercased().contains(text)
        case .has(.location):
            // The location model's finding; coordinates read by libexif always count too.
            return !metadata.locationSources.isEmpty || (metadata.location?.isValid ?? false)
        case .has(.exif):
            return metadata.hasExif
        case .has(.date):
            return metadata.captureDate != nil && metadata.dateSource != .fileModification
        case .orientation(let n):
            return metadata.orientation == n
        case .width(let comparison):
            return metadata.width.map { comparison.matches(Int64($0)) } ?? false
        case .height(let comparison):
            return metadata.height.map { comparison.matches(Int64($0)) } ?? false
        case .megapixels(let comparison):
            guard let w = metadata.width, let h = metadata.height, w >= 0, h >= 0 else { return false }
            // Megapixels in millionths is exactly the pixel count.
            let (pixels, overflow) = Int64(w).multipliedReportingOverflow(by: Int64(h))
            return !overflow && comparison.matchesMegapixels(pixels)
        case .ext(let ext):
            return asset.path.fileExtension == ext
        case .mime(let mime):
            let actual = metadata.format.mime
            if mime.hasSuffix("/*") { return actual.hasPrefix(mime.dropLast()) }
            return actual == mime
        case .size(let comparison):
            return comparison.matches(asset.size)
        case .folder(let components):
            let folder = asset.path.folder.components
            return folder.count >= components.count && Array(folder.prefix(components.count)) == components
        case .name(let glob):
            return glob.matches(String(decoding: asset.path.fileName, as: UTF8.self))
        }
    }
}

extension FilterMediaType {
    /// Whether the asset belongs to this class.
    ///
    /// - `image`, `video`: the container format's kind (from magic bytes).
    /// - `live`: nothing: whether an asset is part of a Live Photo depends on other files
    ///   (`AssetGroups`), which a filter over one asset cannot see; a pick request's
    ///   `media=live` is evaluated with the groups (`MediaSelector.matches(_:isLivePhoto:)`).
    /// - `screenshot`: the file says so (`saysScreenshot`: iOS/macOS/Android write
    ///   "Screenshot" into the user comment), or it is a PNG, JPEG, WebP or HEIC with no
    ///   camera make or model *and* a positive sign of a screen capture: its software names
    ///   a screenshot tool, or its file name starts the way screenshot tools name files
    ///   ("Screenshot", "Screen Shot", "Bildschirmfoto", ...). A camera-less PNG alone is
    ///   not enough: exported diagrams and edits look the same.
    /// - `panorama`: a still image from a camera (EXIF make present) whose long side is at
    ///   least twice its short side, in either orientation.
    public func matches(_ asset: Asset) -> Bool {
        let metadata = asset.metadata
        switch self {
        case .image: return metadata.format.kind == .image
        case .video: return metadata.format.kind == .video
        case .live: return false
        case .screenshot: return Self.looksLikeScreenshot(asset)
        case .panorama:
            guard metadata.format.kind == .image, let make = metadata.make, !trimmed(make).isEmpty,
                let w = metadata.width, let h = metadata.height, w > 0, h > 0
            else { return false }
            let long = Int64(max(w, h))
            let short = Int64(min(w, h))
            return long >= 2 * short
        }
    }

    /// Software names (lower-case substrings) of screen-capture tools.
    static let screenshotSoftware = [
        "screenshot", "screen capture", "screencapture", "spectacle", "flameshot", "ksnip", "shutter", "scrot",
        "grim", "greenshot", "sharex", "snipping", "snagit", "lightshot",
    ]

    /// Lower-case file-name beginnings that screenshot tools use.
    static let screenshotNamePrefixes = [
        "screenshot", "screen shot", "screen_shot", "screencapture", "bildschirmfoto", "capture d",
        "schermafbeelding", "captura de pantalla", "istantanea",
    ]

    static func looksLikeScreenshot(_ asset: Asset) -> Bool {
        let metadata = asset.metadata
        if metadata.saysScreenshot { return true }
        guard [.png, .jpeg, .webp, .heic].contains(metadata.format) else { return false }
        let hasCamera = [metadata.make, metadata.model].contains { $0.map { !trimmed($0).isEmpty } ?? false }
        guard !hasCamera else { return false }
        if let software = metadata.software?.lowercased(), screenshotSoftware.contains(where: { software.contains($0) }) {
            return true
        }
        let name = String(decoding: asset.path.fileName, as: UTF8.self).lowercased()
        return screenshotNamePrefixes.contains { name.hasPrefix($0) }
    }
}

extension Comparison where Bound == Int64 {
    func matches(_ value: Int64) -> Bool {
        switch self {
        case .equal(let b): value == b
        case .less(let b): value < b
        case .lessOrEqual(let b): value <= b
        case .greater(let b): value > b
        case .greaterOrEqual(let b): value >= b
        case .between(let low, let high): (low.map { value >= $0 } ?? true) && (high.map { value <= $0 } ?? true)
        }
    }
}

extension Comparison where Bound == DatePeriod {
    /// Compares a capture date's sort key against whole periods: `taken:2024` is all of
    /// 2024, `taken:>2024-06` starts in July, `taken:<=2024-06` includes all of June.
    func matchesDate(_ key: Int64) -> Bool {
        switch self {
        case .equal(let p): key >= p.firstKey && key <= p.lastKey
        case .less(let p): key < p.firstKey
        case .lessOrEqual(let p): key <= p.lastKey
        case .greater(let p): key > p.lastKey
        case .greaterOrEqual(let p): key >= p.firstKey
        case .between(let low, let high): (low.map { key >= $0.firstKey } ?? true) && (high.map { key <= $0.lastKey } ?? true)
        }
    }
}

extension Comparison where Bound == Decimal1e6 {
    /// Compares a pixel count with megapixels; equality holds at the precision written
    /// (`megapixels:12` is 11.5 up to but excluding 12.5, `megapixels:12.2` is 12.15..<12.25).
    func matchesMegapixels(_ pixels: Int64) -> Bool {
        switch self {
        case .equal(let b):
            var unit: Int64 = 1
            for _ in b.decimals..<6 { unit *= 10 }
            let half = unit / 2
            return pixels >= b.micros - half && pixels < b.micros - half + unit
        case .less(let b): return pixels < b.micros
        case .lessOrEqual(let b): return pixels <= b.micros
        case .greater(let b): return pixels > b.micros
        case .greaterOrEqual(let b): return pixels >= b.micros
        case .between(let low, let high):
            return (low.map { pixels >= $0.micros } ?? true) && (high.map { pixels <= $0.micros } ?? true)
        }
    }
}

/// Text without surrounding spaces and NULs (EXIF pads Make and Model).
func trimmed(_ text: String) -> String {
    let junk: (Character) -> Bool = { $0.isWhitespace || $0 == "\u{0}" }
    guard let first = text.firstIndex(where: { !junk($0) }), let last = text.lastIndex(where: { !junk($0) }) else { return "" }
    return String(text[first...last])
}
