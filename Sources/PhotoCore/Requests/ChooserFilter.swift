import MediaFormats

/// One filter of a desktop file dialog, as the xdg-desktop-portal FileChooser passes it
/// (`(sa(us))`): a name shown to the person and the patterns it lets through.
public struct ChooserFilter: Hashable, Sendable {
    /// A glob on the file name (`*.jpg`, `*.[jJ][pP][gG]`) or a MIME type (`image/*`).
    public enum Pattern: Hashable, Sendable {
        case glob(String)
        case mime(String)
    }

    public var name: String
    public var patterns: [Pattern]

    public init(name: String, patterns: [Pattern]) {
        self.name = name
        self.patterns = patterns
    }

    /// The kinds of media this filter asks for; nil when one of its patterns lets through
    /// anything that is not a photo or video photofs serves (or it has no pattern).
    public var mediaKinds: Set<MediaKind>? {
        guard !patterns.isEmpty else { return nil }
        var kinds: Set<MediaKind> = []
        for pattern in patterns {
            guard let kind = Self.kind(of: pattern) else { return nil }
            kinds.insert(kind)
        }
        return kinds
    }

    static func kind(of pattern: Pattern) -> MediaKind? {
        switch pattern {
        case .mime(let type):
            let lowered = type.lowercased()
            if lowered == "image/*" { return .image }
            if lowered == "video/*" { return .video }
            return PhotoTypes.mimeKinds[lowered]
        case .glob(let glob):
            guard let extensionName = Self.fileExtension(glob) else { return nil }
            return PhotoTypes.extensionKinds[extensionName]
        }
    }

    /// The extension a glob of the form `*.ext` matches, lowercased: GTK writes
    /// case-insensitive globs as `*.[jJ][pP][gG]`, so a class of one letter in both cases
    /// is that letter. nil for any other glob.
    static func fileExtension(_ glob: String) -> String? {
        let characters = Array(glob.lowercased())
        guard characters.count > 2, characters[0] == "*", characters[1] == "." else { return nil }
        var name = ""
        var index = 2
        while index < characters.count {
            let character = characters[index]
            if character == "[" {
                // `[jJ]`, lowered to `[jj]`: one letter either way.
                guard index + 3 < characters.count, characters[index + 3] == "]", characters[index + 1] == characters[index + 2] else {
                    return nil
                }
                name.append(characters[index + 1])
                index += 4
                continue
            }
            guard character.isLetter || character.isNumber, character.isASCII else { return nil }
            name.append(character)
            index += 1
        }
        return name.isEmpty ? nil : name
    }
}

/// Whether a file dialog asks for photos: the media of the pick request it becomes.
public enum PhotoDialog {
    /// The media a dialog with `filters` (and `current`, the one selected first) asks for
    /// when every filter asks only for photos and videos, else when the current filter
    /// does; nil when it asks for other files too (a document dialog, an "All files"
    /// filter that is also the current one, no filter at all).
    public static func media(filters: [ChooserFilter], current: ChooserFilter?) -> MediaSelector? {
        if !filters.isEmpty {
            var kinds: Set<MediaKind> = []
            var allPhotos = true
            for filter in filters {
                guard let found = filter.mediaKinds else {
                    allPhotos = false
                    break
                }
                kinds.formUnion(found)
            }
            if allPhotos { return selector(kinds) }
        }
        if let current, let kinds = current.mediaKinds { return selector(kinds) }
        return nil
    }

    private static func selector(_ kinds: Set<MediaKind>) -> MediaSelector {
        switch (kinds.contains(.image), kinds.contains(.video)) {
        case (true, true): .any([.kind(.image), .kind(.video)])
        case (false, true): .kind(.video)
        default: .kind(.image)
        }
    }
}

/// The file types a photo dialog may name: the formats photofs serves, by MIME type and
/// by file extension, with the aliases applications use.
enum PhotoTypes {
    static let mimeKinds: [String: MediaKind] = {
        var kinds: [String: MediaKind] = [:]
        for format in MediaFormat.allCases { kinds[format.mime] = format.kind }
        let images = [
            "image/jpg", "image/pjpeg", "image/heic-sequence", "image/heif-sequence", "image/x-canon-cr2", "image/x-canon-cr3",
            "image/x-nikon-nef", "image/x-sony-arw", "image/x-fuji-raf", "image/x-olympus-orf", "image/x-panasonic-rw2",
            "image/x-pentax-pef", "image/x-samsung-srw",
        ]
        for type in images { kinds[type] = .image }
        for type in ["video/x-m4v", "video/3gpp2", "video/avi", "video/msvideo"] { kinds[type] = .video }
        return kinds
    }()

    static let extensionKinds: [String: MediaKind] = {
        var kinds: [String: MediaKind] = [:]
        let images = [
            "jpg", "jpeg", "jpe", "jfif", "png", "gif", "webp", "tif", "tiff", "dng", "heic", "heif", "hif", "avif", "jxl", "bmp",
            "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2", "pef", "srw",
        ]
        for name in images { kinds[name] = .image }
        for name in ["mp4", "m4v", "mov", "qt", "3gp", "3gpp", "3g2", "avi", "mts", "m2ts"] { kinds[name] = .video }
        return kinds
    }()
}
