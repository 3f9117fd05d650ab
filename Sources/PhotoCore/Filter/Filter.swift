/// A filter as the user wrote it together with its parsed form.
///
/// The empty (or all-blank) text means "everything". Equality compares the text.
///
/// ## The filter language
///
/// Terms are `key:value`; terms separated by whitespace are ANDed (`AND` may be written);
/// `OR` groups looser than AND; parentheses group; `-term` or `NOT term` negates. The
/// keywords `OR`, `AND`, `NOT` are upper-case and unquoted. Values may be quoted with
/// `"..."` or `'...'` (`model:"EOS 40D"`); quote a value that holds `)` or spaces. Keys are
/// case-insensitive.
///
/// | key | value | matches |
/// |---|---|---|
/// | `type:` | `image` `video` `live` `screenshot` `panorama` | see `FilterMediaType.matches` (`live` matches nothing: a request's `media=live` does, by asset group) |
/// | `taken:` | `2024`, `2024-06`, `2024-06-01`, `A..B`, `A..`, `..B`, `>=D` `>D` `<=D` `<D` | the capture date (file mtime when the file has none), whole periods: `taken:<=2024-06` includes all of June |
/// | `make:` `model:` `lens:` | text | case-insensitive substring |
/// | `camera:` | text | substring of make, of model, or of "make model" |
/// | `has:` | `location` `exif` `date` | valid GPS; an EXIF block; a real capture date (not the mtime fallback) |
/// | `orientation:` | 1...8 | the EXIF orientation tag (a file without the tag matches none) |
/// | `width:` `height:` | whole number, range, comparison | pixel dimensions |
/// | `megapixels:` | decimal, range, comparison | width × height / 10⁶; `megapixels:12` means "rounds to 12" |
/// | `ext:` | `jpg`, `.HEIC` | the file extension, case-insensitive, exactly |
/// | `mime:` | `image/jpeg`, `video/*` | the MIME type of the detected format |
/// | `size:` | `10MB`, `1.5GiB`, `>10MB`, `1MB..3MB` | file size; KB/MB/GB/TB are powers of 1000, KiB/MiB/GiB/TiB of 1024, no unit is bytes |
/// | `folder:` | `Trips/2024` | that folder and its sub-folders, whole components, case-sensitive |
/// | `name:` | glob: `IMG_*`, `?`, `[a-z]`, `[!0-9]`, `\*` | the file name, case-insensitive |
///
/// An asset without the field a term needs (no width, no make) fails the term and passes
/// its negation. Errors (`FilterError`) give the character position and a fix.
public struct Filter: Hashable, Sendable, CustomStringConvertible {
    /// The text as written, e.g. `type:image -has:location`.
    public let source: String
    /// The parsed expression.
    public let expression: FilterExpression

    /// Parses `source`; throws a `FilterError` naming the position of the problem.
    public init(_ source: String) throws(FilterError) {
        self.source = source
        self.expression = try FilterParser.parse(source)
    }

    /// The filter that matches every asset.
    public static let everything = Filter(source: "", expression: .everything)

    private init(source: String, expression: FilterExpression) {
        self.source = source
        self.expression = expression
    }

    /// Whether the filter matches every asset without looking (the empty filter).
    public var isEverything: Bool { expression == .everything }

    /// Whether the asset passes the filter.
    public func matches(_ asset: Asset) -> Bool { expression.matches(asset) }

    public var description: String { source }

    public static func == (lhs: Filter, rhs: Filter) -> Bool { lhs.source == rhs.source }
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}
