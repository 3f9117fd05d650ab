import MediaFormats
import PhotoCore
import PhotoHashing

/// Where a library's catalog lives by default, following the XDG base-directory
/// convention, and the rule that a catalog never lies inside its library.
public enum CatalogLocation {
    /// `$XDG_DATA_HOME/photofs/catalogs/<library name>-<hash>.sqlite`, where
    /// `$XDG_DATA_HOME` defaults to `$HOME/.local/share` (a relative or empty value is
    /// ignored, as the XDG spec says), the name is the library folder's last component and
    /// the hash is the first 16 hex digits of SHA-256 over the library's real path, so two libraries
    /// with the same folder name get different catalogs and a library reached through a
    /// symlink gets the same one.
    ///
    /// `environment` is usually `ProcessInfo`'s; passed in so the rule is testable.
    public static func defaultPath(forLibrary library: String, environment: [String: String]) -> String {
        let real = canonicalLibraryPath(library)
        var base = environment["XDG_DATA_HOME"] ?? ""
        if !base.hasPrefix("/") {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
            base = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/share"
        }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        let name = real.split(separator: UInt8(ascii: "/")).last.map { String(decoding: $0, as: UTF8.self) } ?? "root"
        let safeName = String(name.map { $0 == "/" || $0.isNewline || $0 == "\u{FFFD}" ? "_" : $0 }.prefix(64))
        return "\(base)/photofs/catalogs/\(safeName.isEmpty ? "root" : safeName)-\(SHA256.hex(SHA256.hash(real)).prefix(16)).sqlite"
    }

    /// The library's canonical absolute path (symlinks resolved when it exists).
    public static func canonicalLibraryPath(_ library: String) -> [UInt8] {
        FileSystem.realPathAllowingMissing(Array(library.utf8), currentDirectory: FileSystem.currentDirectory())
    }

    /// Refuses a catalog path inside the library (the library is never written), comparing
    /// real paths so that `..` and symlinks do not hide it.
    public static func validate(catalog: String, library: String) throws(CatalogError) {
        let cwd = FileSystem.currentDirectory()
        let realCatalog = FileSystem.realPathAllowingMissing(Array(catalog.utf8), currentDirectory: cwd)
        let realLibrary = FileSystem.realPathAllowingMissing(Array(library.utf8), currentDirectory: cwd)
        let slash = UInt8(ascii: "/")
        let prefix = realLibrary.last == slash ? realLibrary : realLibrary + [slash]
        if realCatalog == realLibrary || realCatalog.starts(with: prefix) {
            throw .catalogInsideLibrary(catalog: catalog, library: library)
        }
    }
}
