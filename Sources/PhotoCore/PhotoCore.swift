/// PhotoCore: the pure-Swift heart of photofs. No C library, no file system, no SQLite:
/// the asset model, the filter language, apps and grants, the picker command language and
/// the view tree. File formats and redaction planning live below it in `MediaFormats`.
public enum PhotoCoreVersion {
    /// The photofs version string.
    public static let version = "0.1.0"
}
