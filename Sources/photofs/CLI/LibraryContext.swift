import Foundation
import PhotoCatalog
import PhotoCore

/// Finds the library and catalog a command works on and opens the catalog.
///
/// The library comes from the command's argument, `--library`, `$PHOTOFS_LIBRARY`, or,
/// when exactly one library has been catalogued, that one. The catalog is `--catalog`
/// or the XDG default for the library.
struct LibraryContext {
    let library: String
    let catalogPath: String
    let catalog: Catalog

    /// The options every catalog-reading command accepts.
    static let options: [OptionSpec] = [
        .value("library", short: "L", "DIR", "the library (default: $PHOTOFS_LIBRARY, or the only catalogued one)"),
        .value("catalog", "PATH", "the catalog file (default: under $XDG_DATA_HOME/photofs/catalogs)"),
    ]

    /// Opens the catalog of an explicitly named library (index, mount), creating it.
    static func open(library: String, arguments: ParsedArguments, environment: Environment) throws(CLIError) -> LibraryContext {
        let catalogPath = try catalogPath(library: library, arguments: arguments, environment: environment)
        do throws(CatalogError) {
            let catalog = try Catalog.open(at: catalogPath, library: CatalogLocation.canonicalLibraryPath(library))
            for line in catalog.exposure { environment.output.error("warning: \(line).") }
            return LibraryContext(library: library, catalogPath: catalogPath, catalog: catalog)
        } catch {
            throw .failure("cannot open the catalog \(catalogPath): \(error).")
        }
    }

    /// The catalog path for an explicitly named library (`--catalog` or the default), once
    /// the library is found to be a folder and the catalog is not inside it.
    static func catalogPath(library: String, arguments: ParsedArguments, environment: Environment) throws(CLIError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: library, isDirectory: &isDirectory) else {
            throw .notFound("the library '\(library)' does not exist.")
        }
        guard isDirectory.boolValue else { throw .usage("the library '\(library)' is not a directory.") }
        let catalogPath = arguments.value("catalog") ?? CatalogLocation.defaultPath(forLibrary: library, environment: environment.variables)
        do throws(CatalogError) {
            try CatalogLocation.validate(catalog: catalogPath, library: library)
        } catch {
            throw .failure("cannot open the catalog \(catalogPath): \(error).")
        }
        return catalogPath
    }

    /// Opens the catalog for a command that reads an existing catalog (ls, show, app, select).
    static func existing(arguments: ParsedArguments, environment: Environment) throws(CLIError) -> LibraryContext {
        if let catalogPath = arguments.value("catalog") {
            guard FileManager.default.fileExists(atPath: catalogPath) else {
                throw .notFound("no catalog at \(catalogPath); run 'photofs index LIBRARY --catalog \(catalogPath)' first.")
            }
            do throws(CatalogError) {
                let catalog = try Catalog.open(at: catalogPath)
                for line in catalog.exposure { environment.output.error("warning: \(line).") }
                let root = (try? catalog.libraryRoot).flatMap { $0 }.map { LibraryPath(bytes: $0).display } ?? "?"
                return LibraryContext(library: root, catalogPath: catalogPath, catalog: catalog)
            } catch {
                throw .failure("cannot open the catalog \(catalogPath): \(error).")
            }
        }
        if let library = arguments.value("library") ?? environment.variables["PHOTOFS_LIBRARY"] {
            let catalogPath = CatalogLocation.defaultPath(forLibrary: library, environment: environment.variables)
            guard FileManager.default.fileExists(atPath: catalogPath) else {
                throw .notFound("the library '\(library)' has no catalog yet; run 'photofs index \(library)' first.")
            }
            return try open(library: library, arguments: arguments, environment: environment)
        }
        let directory = (CatalogLocation.defaultPath(forLibrary: "/x", environment: environment.variables) as NSString)
            .deletingLastPathComponent
        let catalogs = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".sqlite") }
        // No catalog is "not found", as for a named library; several is an ambiguous command line.
        if catalogs.isEmpty { throw .notFound("no library has been indexed yet; run 'photofs index LIBRARY' first.") }
        guard catalogs.count == 1 else { throw .usage("\(catalogs.count) libraries are catalogued; say which with --library DIR.") }
        var parsed = arguments
        parsed.options["catalog"] = [directory + "/" + catalogs[0]]
        return try existing(arguments: parsed, environment: environment)
    }
}
