import Dispatch
import PhotoCore
import PhotoSamples
import Synchronization
import SystemKit

/// `photofs generate DIR`: writes a generated sample library (real JPEGs with EXIF dates,
/// cameras and GPS) for demos, tests and benchmarks.
enum GenerateCommand {
    static let command = Command(
        name: "generate",
        summary: "write a generated sample photo library into a directory",
        usage: ["generate [--count N] [--seed S] [--force] DIR"],
        details: """
            Creates DIR and writes N small JPEG photos into dated event folders, a camera roll, \
            messenger images and scans: several camera makes and models, capture dates over a \
            few years, GPS on about half of them, some without EXIF, a few file names that \
            repeat across folders and one with a space. The same seed and count always give \
            the same files, byte for byte. Each file's mtime is set to its capture time.
            """,
        options: [
            .value("count", short: "n", "N", "number of photos (default 100)"),
            .value("seed", "S", "seed of the generator (default 1)"),
            .flag("force", "write into DIR even when it is not empty"),
        ]
    ) { arguments, environment throws(CLIError) in
        let directory = try arguments.positional(0, "DIR")
        guard arguments.positionals.count == 1 else { throw .usage("generate takes one directory, got \(arguments.positionals.count)") }
        let count = try intOption(arguments, "count", default: 100, range: 1...1_000_000)
        let seed = try seedOption(arguments)
        let started = ProgressBar.now()
        let summary = try write(
            SampleLibrary(seed: seed, count: count), into: directory, force: arguments.flag("force"), environment: environment)
        let elapsed = ProgressBar.now() - started
        environment.output.line(
            "Wrote \(summary.files) photos (\(summary.bytes / 1024) KiB) in \(summary.folders) folders to \(directory) "
                + "in \(Int(elapsed * 1000)) ms: \(summary.withExif) with EXIF, \(summary.withLocation) with GPS, "
                + "\(summary.cameras) camera models.")
        return .success
    }

    /// What `write` produced.
    struct Summary {
        var files = 0
        var bytes = 0
        var folders = 0
        var withExif = 0
        var withLocation = 0
        var cameras = 0
    }

    /// Writes every photo of `library` under `directory` on all cores, setting mtimes;
    /// refuses a non-empty directory unless `force`.
    static func write(_ library: SampleLibrary, into directory: String, force: Bool, environment: Environment) throws(CLIError) -> Summary {
        try prepare(directory, force: force)
        let folders = Set(library.photos.map { parent(of: $0.relativePath) }).sorted()
        for folder in folders where !folder.isEmpty {
            try makeDirectories(directory + "/" + folder)
        }
        let total = library.photos.count
        let progress =
            total >= 2000 ? ProgressBar(label: "generate", isTerminal: environment.stderrIsTerminal, output: environment.output) : nil
        let done = Atomic<Int>(0)
        let bytesWritten = Atomic<Int>(0)
        let firstError = Mutex<CLIError?>(nil)
        let workers = min(CurrentProcess.onlineProcessorCount, 16)
        let encoder = JPEGEncoder()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: total, by: workers) {
                if firstError.withLock({ $0 != nil }) { return }
                let photo = library.photos[index]
                do throws(CLIError) {
                    let bytes: [UInt8]
                    do throws(JPEGEncoderError) {
                        bytes = try SampleLibrary.bytes(of: photo, encoder: encoder)
                    } catch {
                        throw .failure("could not encode \(photo.relativePath): \(error)")
                    }
                    try writeFile(directory + "/" + photo.relativePath, bytes, modificationTime: photo.modificationTime)
                    bytesWritten.add(bytes.count, ordering: .relaxed)
                } catch {
                    firstError.withLock { if $0 == nil { $0 = error } }
                    return
                }
                let finished = done.add(1, ordering: .relaxed).newValue
                progress?.update(done: finished, total: total)
            }
        }
        progress?.finish()
        if let error = firstError.withLock({ $0 }) { throw error }
        var summary = Summary()
        summary.files = total
        summary.bytes = bytesWritten.load(ordering: .relaxed)
        summary.folders = folders.count
        summary.withExif = library.photos.count { $0.hasExif }
        summary.withLocation = library.photos.count { $0.location != nil }
        summary.cameras = Set(library.photos.compactMap { $0.camera?.model }).count
        return summary
    }

    /// Creates `directory` (and its parents), or checks that it is empty.
    static func prepare(_ directory: String, force: Bool) throws(CLIError) {
        let names: [[UInt8]]
        do throws(Errno) {
            names = try FileSystem.names(inDirectory: directory)
        } catch {
            guard error == .noSuchFileOrDirectory else { throw .failure("cannot open \(directory): \(error).") }
            try makeDirectories(directory)
            return
        }
        if !names.isEmpty && !force {
            throw .refused("\(directory) is not empty; choose an empty or new directory, or pass --force to write into it.")
        }
    }

    /// `mkdir -p`.
    static func makeDirectories(_ path: String) throws(CLIError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            do throws(Errno) {
                try FileSystem.makeDirectory(current, mode: 0o755)
            } catch {
                throw .failure("cannot create directory \(current): \(error).")
            }
        }
    }

    /// Writes the whole file and sets its mtime (and atime).
    static func writeFile(_ path: String, _ bytes: [UInt8], modificationTime: Int64) throws(CLIError) {
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try FileDescriptor.open(path, [.writeOnly, .create, .truncate], mode: 0o644)
        } catch {
            throw .failure("cannot create \(path): \(error).")
        }
        defer { descriptor.close() }
        do throws(Errno) {
            try descriptor.writeAll(bytes)
        } catch {
            throw .failure("cannot write \(path): \(error).")
        }
        do throws(Errno) {
            try descriptor.setTimes(seconds: modificationTime)
        } catch {
            throw .failure("cannot set the time of \(path): \(error).")
        }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    static func intOption(_ arguments: ParsedArguments, _ name: String, default value: Int, range: ClosedRange<Int>) throws(CLIError) -> Int
    {
        guard let text = arguments.value(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("--\(name) wants a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    static func seedOption(_ arguments: ParsedArguments) throws(CLIError) -> UInt64 {
        guard let text = arguments.value("seed") else { return 1 }
        guard let seed = UInt64(text) else { throw .usage("--seed wants a non-negative whole number, got '\(text)'") }
        return seed
    }
}
