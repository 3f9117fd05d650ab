import PhotoCore
import PhotoMetadata

@testable import PhotoCatalog

/// A library in a temporary directory (`lib/`), its catalog beside it (`c.sqlite`) and an
/// indexer with the real analyzer: the setup the scan, snapshot and watcher tests share.
/// The directory goes when the value does.
public final class TestLibrary {
    public let dir: TemporaryDirectory
    public let catalog: Catalog
    public let indexer: Indexer

    /// Makes `folders` below the library root, writes `photos` (library-relative path →
    /// the comment of a tiny JPEG), and indexes once when `indexed`.
    public init(folders: [String] = [], photos: [String: String] = [:], indexed: Bool = true) throws {
        dir = try TemporaryDirectory()
        try FileOps.makeDirectories(dir.child("lib"))
        for folder in folders { try FileOps.makeDirectories(dir.child("lib/" + folder)) }
        for (path, comment) in photos { try FileOps.write(TinyJPEG.bytes(comment: comment), to: dir.child("lib/" + path)) }
        catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        indexer = Indexer(catalog: catalog, library: dir.child("lib"), analyzer: FileAnalyzer())
        if indexed { _ = try indexer.run() }
    }

    deinit { dir.remove() }

    public var catalogPath: String { dir.string + "/c.sqlite" }

    /// The absolute path of a library-relative path.
    public func path(_ relative: String) -> [UInt8] { dir.child("lib/" + relative) }

    /// Writes a tiny JPEG with this comment at a library-relative path.
    public func writePhoto(_ relative: String, comment: String) throws {
        try FileOps.write(TinyJPEG.bytes(comment: comment), to: path(relative))
    }

    /// An indexer over the same library through a second connection (another process, as
    /// far as SQLite can tell).
    public func otherIndexer() throws -> Indexer {
        Indexer(catalog: try Catalog.open(at: catalogPath), library: dir.child("lib"), analyzer: FileAnalyzer())
    }
}
