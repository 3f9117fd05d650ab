import Foundation
import PhotoCatalog
import PhotoCore
import PhotoMetadata
import SystemKit

/// `photofs index LIBRARY`: scans the library into its catalog, incrementally.
enum IndexCommand {
    static let command = Command(
        name: "index",
        summary: "scan a library into its catalog (incremental, progress bar)",
        usage: ["index [--catalog PATH] [--verify] [--quiet] LIBRARY"],
        details: """
            Files whose size, mtime, inode and ctime are unchanged are skipped; new and changed files are read \
            on every core; renamed and moved files keep their id and grants; deleted files leave the \
            catalog. A file that cannot be parsed is catalogued with what is known and the reason \
            ('photofs show'). A file that is not a photo or video is no asset: it counts as 'not assets', \
            apart from 'failed' (a file that could not be read), and 'photofs show' names it as such. \
            Symbolic links are not followed. Files are known by a fingerprint of their size and first and last \
            64 KiB; --verify then reads every catalogued file whole (SHA-256), stores the hash, and \
            reports and re-indexes any file whose content changed since the last verify although its \
            size, mtime, inode and ctime did not.
            """,
        options: [
            .value("catalog", "PATH", "the catalog file (default: under $XDG_DATA_HOME/photofs/catalogs)"),
            .flag("verify", "also hash every catalogued file whole and report silent changes"),
            .flag("quiet", short: "q", "print only errors"),
        ]
    ) { arguments, environment throws(CLIError) in
        let library = try arguments.positional(0, "LIBRARY")
        let quiet = arguments.flag("quiet")
        var context: LibraryContext?
        let summary: IndexSummary
        switch try runIntoNewCatalog(library: library, arguments: arguments, quiet: quiet, environment: environment) {
        case .indexed(let first):
            summary = first
        case .notNew(let scan):
            let opened = try LibraryContext.open(library: library, arguments: arguments, environment: environment)
            let indexer = Indexer(
                catalog: opened.catalog, library: CatalogLocation.canonicalLibraryPath(library), analyzer: FileAnalyzer())
            summary = try run(opened, indexer: indexer, scan: scan, quiet: quiet, environment: environment)
            context = opened
        }
        if !quiet {
            environment.output.line(describe(summary))
        }
        if arguments.flag("verify") {
            if context == nil { context = try LibraryContext.open(library: library, arguments: arguments, environment: environment) }
            if let context { try verify(context, quiet: quiet, environment: environment) }
        }
        return .success
    }

    /// What `runIntoNewCatalog` did.
    enum NewCatalogRun {
        /// The library is indexed into a new catalog, now at its path.
        case indexed(IndexSummary)
        /// Nothing was indexed: a catalog is at the path already, another process made one
        /// there during the run (this run's work is thrown away), or the library is too
        /// large to index in one private run. The caller indexes into the catalog at the
        /// path as into any other, over `scan` when the library was walked already.
        case notNew(scan: LibraryScan?)
    }

    /// The most files a first index fills a private catalog with. A private catalog is
    /// named only when complete, so an interrupted run keeps nothing; a larger library is
    /// indexed in place in committed batches instead, so that a run stopped halfway keeps
    /// what it did and the next one goes on from there.
    static let largestPrivateIndex = 20_000

    /// Indexes the library into a new catalog filled while it is private and named when
    /// complete (see `NewCatalog`), when no catalog is at the path and the library has at
    /// most `largestPrivateIndex` files.
    static func runIntoNewCatalog(library: String, arguments: ParsedArguments, quiet: Bool, environment: Environment) throws(CLIError)
        -> NewCatalogRun
    {
        let catalogPath = try LibraryContext.catalogPath(library: library, arguments: arguments, environment: environment)
        guard !FileManager.default.fileExists(atPath: catalogPath) else { return .notNew(scan: nil) }
        let root = CatalogLocation.canonicalLibraryPath(library)
        // The library is walked while the new catalog's schema is made.
        let walking = BackgroundResult { () throws(IndexError) in try LibraryScan.walk(library: root) }
        let new: NewCatalog
        do throws(CatalogError) {
            guard let begun = try NewCatalog.begin(at: catalogPath, library: root) else {
                _ = walking.wait()
                return .notNew(scan: nil)
            }
            new = begun
        } catch {
            _ = walking.wait()
            throw .failure("cannot open the catalog \(catalogPath): \(error).")
        }
        let context = LibraryContext(library: library, catalogPath: catalogPath, catalog: new.catalog)
        for line in new.catalog.exposure { environment.output.error("warning: \(line).") }
        let summary: IndexSummary
        do throws(CLIError) {
            let scan: LibraryScan
            do throws(IndexError) {
                scan = try walking.wait().get()
            } catch {
                throw describe(error, context: context)
            }
            if scan.fileCount > largestPrivateIndex {
                new.discard()
                return .notNew(scan: scan)
            }
            let indexer = Indexer(catalog: new.catalog, library: root, analyzer: FileAnalyzer())
            summary = try run(context, indexer: indexer, scan: scan, quiet: quiet, environment: environment)
        } catch {
            new.discard()
            throw error
        }
        do throws(CatalogError) {
            return try new.publish() ? .indexed(summary) : .notNew(scan: nil)
        } catch {
            throw .failure("the catalog \(catalogPath) failed: \(error).")
        }
    }

    /// Runs the indexer with a progress bar on stderr; shared with `mount` and `demo`.
    static func run(_ context: LibraryContext, quiet: Bool, environment: Environment) throws(CLIError) -> IndexSummary {
        let indexer = Indexer(
            catalog: context.catalog, library: CatalogLocation.canonicalLibraryPath(context.library), analyzer: FileAnalyzer())
        return try run(context, indexer: indexer, scan: nil, quiet: quiet, environment: environment)
    }

    /// Shows a run's reading of files on `bar` (the walk before it has no totals to show).
    static func showReading(on bar: ProgressBar?) -> @Sendable (IndexProgress) -> Void {
        { progress in
            guard let counts = progress.counts, counts.filesTotal > 0 else { return }
            bar?.update(done: counts.filesDone, total: counts.filesTotal, bytesDone: counts.bytesDone, bytesTotal: counts.bytesTotal)
        }
    }

    /// Runs `indexer` with a progress bar, over `scan` when the library was walked already.
    static func run(_ context: LibraryContext, indexer: Indexer, scan: LibraryScan?, quiet: Bool, environment: Environment) throws(CLIError)
        -> IndexSummary
    {
        let bar = quiet ? nil : ProgressBar(label: "indexing", isTerminal: environment.stderrIsTerminal, output: environment.output)
        let progress = showReading(on: bar)
        do throws(IndexError) {
            let summary: IndexSummary
            if let scan {
                summary = try indexer.run(scan: scan, progress: progress)
            } else {
                summary = try indexer.run(progress: progress)
            }
            bar?.finish()
            return summary
        } catch {
            bar?.finish()
            throw describe(error, context: context)
        }
    }

    /// Hashes every catalogued file whole and says what it found.
    static func verify(_ context: LibraryContext, quiet: Bool, environment: Environment) throws(CLIError) {
        let indexer = Indexer(
            catalog: context.catalog, library: CatalogLocation.canonicalLibraryPath(context.library), analyzer: FileAnalyzer())
        let bar = quiet ? nil : ProgressBar(label: "verifying", isTerminal: environment.stderrIsTerminal, output: environment.output)
        let progress = showReading(on: bar)
        let outcome: (VerifySummary, IndexSummary?)
        do throws(IndexError) {
            outcome = try indexer.verify(progress: progress)
            bar?.finish()
        } catch {
            bar?.finish()
            throw describe(error, context: context)
        }
        let (summary, reindex) = outcome
        for path in summary.changedSilently {
            environment.output.error("\(path.display): content changed although size, mtime, inode and ctime did not; indexed again")
        }
        if !quiet {
            var line =
                "verified \(summary.files) files (\(ProgressBar.size(summary.bytes))): \(summary.firstHashed) hashed for the first time, "
            line += "\(summary.changedSilently.count) changed silently, \(summary.unreadable.count) unreadable"
            environment.output.line(line)
            if let reindex { environment.output.line(describe(reindex)) }
        }
    }

    /// The CLI error for a failed index run.
    static func describe(_ error: IndexError, context: LibraryContext) -> CLIError {
        switch error {
        case .library(let reason): .notFound("cannot read the library \(context.library): \(reason).")
        case .catalog(let reason): .failure("the catalog \(context.catalogPath) failed: \(reason).")
        }
    }

    /// One line: what the run found and how long it took.
    static func describe(_ s: IndexSummary) -> String {
        var text =
            "\(s.new) new, \(s.changed) changed, \(s.moved) moved, \(s.removed) removed, \(s.notAssets) not assets, \(s.failed) failed, \(s.unchanged + s.touched) unchanged"
        text += " in " + String(format: "%.2f", s.seconds) + " s"
        if !s.unreadableFolders.isEmpty {
            text += "; unreadable folders left as they were: " + s.unreadableFolders.map(\.display).joined(separator: ", ")
        }
        return text
    }
}
