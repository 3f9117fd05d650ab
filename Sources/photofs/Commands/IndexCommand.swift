import Foundation
import PhotoCatalog
import PhotoCore
import PhotoMetadata

/// `photofs index LIBRARY`: scans the library into its catalog, incrementally.
enum IndexCommand {
    static let command = Command(
        name: "index",
        summary: "scan a library into its catalog (incremental, progress bar)",
        usage: ["index [--catalog PATH] [--quiet] LIBRARY"],
        details: """
            Files whose size, mtime and inode are unchanged are skipped; new and changed files are read \
            on every core; renamed and moved files keep their id and grants; deleted files leave the \
            catalog. A file that cannot be parsed is catalogued with what is known and the reason \
            ('photofs show'); a file that is not a photo or video is listed as a failure. Symbolic \
            links are not followed.
            """,
        options: [
            .value("catalog", "PATH", "the catalog file (default: under $XDG_DATA_HOME/photofs/catalogs)"),
            .flag("quiet", short: "q", "print only errors"),
        ]
    ) { arguments, environment throws(CLIError) in
        let library = try arguments.positional(0, "LIBRARY")
        let context = try LibraryContext.open(library: library, arguments: arguments, environment: environment)
        let summary = try run(context, quiet: arguments.flag("quiet"), environment: environment)
        if !arguments.flag("quiet") {
            environment.output.line(describe(summary))
        }
        return .success
    }

    /// Runs the indexer with a progress bar on stderr; shared with `mount` and `demo`.
    static func run(_ context: LibraryContext, quiet: Bool, environment: Environment) throws(CLIError) -> IndexSummary {
        let indexer = Indexer(
            catalog: context.catalog, library: CatalogLocation.canonicalLibraryPath(context.library), analyzer: FileAnalyzer())
        return try run(context, indexer: indexer, scan: nil, quiet: quiet, environment: environment)
    }

    /// Runs `indexer` with a progress bar, over `scan` when the library was walked already.
    static func run(_ context: LibraryContext, indexer: Indexer, scan: LibraryScan?, quiet: Bool, environment: Environment) throws(CLIError)
        -> IndexSummary
    {
        let bar = quiet ? nil : ProgressBar(label: "indexing", isTerminal: environment.stderrIsTerminal, output: environment.output)
        let progress: @Sendable (IndexProgress) -> Void = { progress in
            if progress.phase == .analyzing, progress.filesTotal > 0 { bar?.update(done: progress.filesDone, total: progress.filesTotal) }
        }
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
