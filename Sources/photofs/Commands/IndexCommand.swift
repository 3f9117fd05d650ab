import Foundation
import PhotoCatalog
import PhotoCore
import PhotoMetadata

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
        let context = try LibraryContext.open(library: library, arguments: arguments, environment: environment)
        let summary = try run(context, quiet: arguments.flag("quiet"), environment: environment)
        if !arguments.flag("quiet") {
            environment.output.line(describe(summary))
        }
        if arguments.flag("verify") {
            try verify(context, quiet: arguments.flag("quiet"), environment: environment)
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
            if progress.phase == .analyzing, progress.filesTotal > 0 {
                bar?.update(
                    done: progress.filesDone, total: progress.filesTotal, bytesDone: progress.bytesDone, bytesTotal: progress.bytesTotal)
            }
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

    /// Hashes every catalogued file whole and says what it found.
    static func verify(_ context: LibraryContext, quiet: Bool, environment: Environment) throws(CLIError) {
        let indexer = Indexer(
            catalog: context.catalog, library: CatalogLocation.canonicalLibraryPath(context.library), analyzer: FileAnalyzer())
        let bar = quiet ? nil : ProgressBar(label: "verifying", isTerminal: environment.stderrIsTerminal, output: environment.output)
        let progress: @Sendable (IndexProgress) -> Void = { progress in
            if progress.phase == .analyzing, progress.filesTotal > 0 {
                bar?.update(
                    done: progress.filesDone, total: progress.filesTotal, bytesDone: progress.bytesDone, bytesTotal: progress.bytesTotal)
            }
        }
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
