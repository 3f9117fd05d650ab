import Dispatch
import Foundation
import PhotoCatalog
import PhotoCore
import PhotoImaging
import Synchronization

/// `photofs thumbnails [LIBRARY]`: fills the freedesktop thumbnail cache for every
/// catalogued asset, on every core, with a progress bar.
enum ThumbnailsCommand {
    static let command = Command(
        name: "thumbnails",
        summary: "make freedesktop thumbnails of every catalogued asset (all cores, progress bar)",
        usage: [
            "thumbnails [--size normal|large|x-large] [--force] [--jobs N] [--time-limit SECONDS] [--quiet] [--library DIR | --catalog PATH] [LIBRARY]",
            "thumbnails --mount MOUNTPOINT [--size normal|large|x-large] [--force] [--jobs N] [--time-limit SECONDS] [--quiet]",
        ],
        details: """
            Writes PNG thumbnails to $XDG_CACHE_HOME/thumbnails/SIZE/ (~/.cache when unset) as the \
            freedesktop Thumbnail Managing Standard describes: named by the MD5 of the file's URI, with \
            Thumb::URI and Thumb::MTime and no other metadata, so file managers browsing the library \
            reuse them. normal fits 128 px, large 256 px (default), x-large 512 px. A thumbnail whose \
            Thumb::MTime matches the file is kept unless --force. An embedded preview (EXIF, MPF, HEIF \
            thumbnail, DNG/raw preview) is used when it is large enough; GIF (first frame), BMP and \
            TIFF (every compression libtiff reads) are decoded; videos get a poster frame with their \
            duration. Decoding runs in separate processes with a time limit, so a hostile file fails alone.

            File managers look thumbnails up by the address of the file they show, so thumbnails of \
            the library are not found for the same photo under a mount. With --mount, the files of \
            every app view of the mount (MOUNTPOINT/apps/APP/...) get thumbnails under their mount \
            addresses, made from what the view serves; run it again after selecting more photos.
            """,
        options: LibraryContext.options + [
            .value("size", short: "s", "SIZE", "normal (128), large (256, default) or x-large (512)"),
            .flag("force", "remake thumbnails that are already fresh"),
            .value("jobs", short: "j", "N", "decoder processes to run at once (default: two per core)"),
            .value("time-limit", "SECONDS", "the longest one file may take (default 30)"),
            .flag("quiet", short: "q", "print only errors"),
            .value("mount", "MOUNTPOINT", "make thumbnails of the app views' files under their mount paths"),
        ]
    ) { arguments, environment throws(CLIError) in
        var parsed = arguments
        if let library = arguments.positionals.first { parsed.options["library"] = [library] }
        guard arguments.positionals.count <= 1 else { throw .usage("thumbnails takes one LIBRARY at most") }
        let sizeName = arguments.value("size") ?? "large"
        guard let size = ThumbnailSize(rawValue: sizeName) else {
            throw .usage("--size must be normal, large or x-large, not '\(sizeName)'")
        }
        // Two decoder processes per core: while one reads its file or hands back its PNG
        // the other decodes, so the cores stay busy.
        let jobs = try positiveNumber(arguments.value("jobs"), name: "jobs") ?? 2 * ProcessInfo.processInfo.activeProcessorCount
        let timeLimit = Double(try positiveNumber(arguments.value("time-limit"), name: "time-limit") ?? 30)
        // A library's files open as the mount opens them (below the root, through no
        // symbolic link, only as the catalogued version); a mount's are plain paths.
        let files: [(job: Job, display: String)]
        if let mountpoint = arguments.value("mount") {
            guard arguments.positionals.isEmpty, arguments.value("library") == nil, arguments.value("catalog") == nil else {
                throw .usage("--mount takes the files from the mount, not from a LIBRARY or a catalog")
            }
            files = try MountedFiles.list(mountpoint: mountpoint).map { (.file($0.path), $0.display) }
        } else {
            let context = try LibraryContext.existing(arguments: parsed, environment: environment)
            do throws(CatalogError) {
                let root = try context.catalog.libraryRoot ?? Array(CatalogLocation.canonicalLibraryPath(context.library))
                files = try context.catalog.snapshot().assets.map { (.asset($0, root: root), $0.path.display) }
            } catch {
                throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
            }
        }
        let pool = DecoderPool(executable: environment.executablePath, size: jobs, timeLimit: timeLimit)
        let service = ThumbnailService(pool: pool, cache: ThumbnailCache(environment: environment.variables))
        let quiet = arguments.flag("quiet")
        let bar = quiet ? nil : ProgressBar(label: "thumbnails", isTerminal: environment.stderrIsTerminal, output: environment.output)
        let tally = Mutex(Tally())
        let started = ProgressBar.now()
        let force = arguments.flag("force")
        let next = Mutex(0)
        let group = DispatchGroup()
        for _ in 0..<min(jobs, max(files.count, 1)) {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                while true {
                    let index = next.withLock { value in
                        defer { value += 1 }
                        return value
                    }
                    guard index < files.count else { return }
                    let (job, display) = files[index]
                    let outcome: Result<ThumbnailService.Thumbnail, ImagingError>
                    do throws(ImagingError) {
                        switch job {
                        case .asset(let asset, let root):
                            outcome = .success(try service.thumbnail(of: asset, libraryRoot: root, size: size, force: force))
                        case .file(let path):
                            outcome = .success(try service.thumbnail(forFile: path, size: size, force: force))
                        }
                    } catch {
                        outcome = .failure(error)
                    }
                    let done = tally.withLock { tally in
                        tally.record(outcome, path: display)
                        return tally.done
                    }
                    bar?.update(done: done, total: files.count)
                }
            }
        }
        group.wait()
        pool.shutdown()
        bar?.finish()
        let result = tally.withLock { $0 }
        for (path, error) in result.failures.prefix(20) {
            environment.output.error("\(path.replacingNewlines()): \(error)")
        }
        if result.failures.count > 20 { environment.output.error("... and \(result.failures.count - 20) more failures") }
        if !quiet {
            environment.output.line(result.summary(seconds: ProgressBar.now() - started, folder: service.cache.root + "/" + size.folder))
        }
        return .success
    }

    private static func positiveNumber(_ text: String?, name: String) throws(CLIError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value > 0 else { throw .usage("--\(name) must be a positive whole number, not '\(text)'") }
        return value
    }

    /// One file to make a thumbnail of.
    enum Job: Sendable {
        /// A catalogued asset below the library folder `root`.
        case asset(Asset, root: [UInt8])
        /// A file at an absolute path (under a mount).
        case file([UInt8])
    }

    /// What the run did so far.
    struct Tally {
        var done = 0
        var fresh = 0
        var made: [ThumbnailOrigin: Int] = [:]
        var failures: [(String, ImagingError)] = []

        mutating func record(_ outcome: Result<ThumbnailService.Thumbnail, ImagingError>, path: String) {
            done += 1
            switch outcome {
            case .success(let thumbnail):
                if let origin = thumbnail.origin { made[origin, default: 0] += 1 } else { fresh += 1 }
            case .failure(let error):
                failures.append((path, error))
            }
        }

        func summary(seconds: Double, folder: String) -> String {
            let total = made.values.reduce(0, +)
            let embedded = made.filter { $0.key.isEmbedded }.values.reduce(0, +)
            var text = "\(total) made (\(embedded) from embedded previews"
            let parts: [(ThumbnailOrigin, String)] = [
                (.exifThumbnail, "EXIF"), (.mpfPreview, "MPF"), (.heifThumbnail, "HEIF"), (.tiffPreview, "TIFF/raw"),
                (.videoFrame, "video frames"), (.videoPlaceholder, "video placeholders"),
            ]
            for (origin, name) in parts where (made[origin] ?? 0) > 0 { text += ", \(made[origin]!) \(name)" }
            text += "), \(fresh) already fresh, \(failures.count) failed in " + String(format: "%.2f", seconds) + " s; in \(folder)"
            return text
        }
    }
}
