import CatalogTestSupport
import MediaFormats
import PhotoCore
import PhotoHashing
import Testing

@testable import PhotoCatalog

@Suite("Catalog location")
struct CatalogLocationTests {
    @Test func followsXDGDataHome() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileOps.makeDirectories(dir.child("Pictures"))
        let real = dir.string + "/Pictures"
        let hash = String(SHA256.hex(SHA256.hash(CatalogLocation.canonicalLibraryPath(real))).prefix(16))
        #expect(
            CatalogLocation.defaultPath(forLibrary: real, environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
                == "/data/photofs/catalogs/Pictures-\(hash).sqlite")
        // Unset, empty or relative XDG_DATA_HOME falls back to ~/.local/share.
        for xdg in [nil, "", "relative/dir"] as [String?] {
            var env = ["HOME": "/home/u/"]
            env["XDG_DATA_HOME"] = xdg
            #expect(
                CatalogLocation.defaultPath(forLibrary: real, environment: env)
                    == "/home/u/.local/share/photofs/catalogs/Pictures-\(hash).sqlite")
        }
    }

    @Test func oneLibraryOneCatalogHoweverItIsNamed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileOps.makeDirectories(dir.child("a/Photos"))
        try FileOps.makeDirectories(dir.child("b/Photos"))
        try FileOps.symlink(target: dir.child("a/Photos"), at: dir.child("alias"))
        let env = ["XDG_DATA_HOME": "/x"]
        let a = CatalogLocation.defaultPath(forLibrary: dir.string + "/a/Photos", environment: env)
        #expect(CatalogLocation.defaultPath(forLibrary: dir.string + "/a/Photos/", environment: env) == a)
        #expect(CatalogLocation.defaultPath(forLibrary: dir.string + "/b/../a/Photos", environment: env) == a)
        #expect(CatalogLocation.defaultPath(forLibrary: dir.string + "/alias", environment: env) == a)
        #expect(CatalogLocation.defaultPath(forLibrary: dir.string + "/b/Photos", environment: env) != a)
        #expect(a.hasPrefix("/x/photofs/catalogs/Photos-"))
    }

    @Test(arguments: [
        ("lib/c.sqlite", true),
        ("lib/deep/new/c.sqlite", true),
        ("lib", true),
        ("other/../lib/c.sqlite", true),
        ("alias/c.sqlite", true),
        ("lib-2/c.sqlite", false),
        ("c.sqlite", false),
        ("lib/../c.sqlite", false),
    ])
    func refusesACatalogInsideTheLibrary(catalog: String, inside: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileOps.makeDirectories(dir.child("lib"))
        try FileOps.makeDirectories(dir.child("other"))
        try FileOps.symlink(target: dir.child("lib"), at: dir.child("alias"))
        let library = dir.string + "/lib"
        if inside {
            #expect(throws: CatalogError.catalogInsideLibrary(catalog: dir.string + "/" + catalog, library: library)) {
                try CatalogLocation.validate(catalog: dir.string + "/" + catalog, library: library)
            }
        } else {
            try CatalogLocation.validate(catalog: dir.string + "/" + catalog, library: library)
        }
    }

    @Test func openCreatesTheCatalogDirectories() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = CatalogLocation.defaultPath(forLibrary: dir.string, environment: ["XDG_DATA_HOME": dir.string + "/data"])
        _ = try Catalog.open(at: path)
        #expect(FileOps.read(Array(path.utf8)) != nil)
    }
}
