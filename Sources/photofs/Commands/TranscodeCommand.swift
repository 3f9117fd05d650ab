import Dispatch
import Foundation
import MediaFormats
import PhotoCore
import PhotoImaging
import Synchronization

/// `photofs transcode --output DIR FILE...`: writes the compatible JPEG of HEIC, HEIF, AVIF
/// and JPEG XL files, as an app with the compatible representation is served it.
enum TranscodeCommand {
    static let command = Command(
        name: "transcode",
        summary: "write the compatible JPEG of HEIC/HEIF/AVIF/JPEG XL files (all cores)",
        usage: ["transcode [--quality Q] [--location strip|coarse|keep] [--jobs N] --output DIR FILE..."],
        details: """
            Decodes each file in a separate decoder process and writes DIR/NAME.jpg: the upright \
            picture at quality Q (0.8 or 80 by default, as the iOS picker's jpegData), with the \
            file's EXIF carried over (date, camera, lens) and its orientation set to 1. Location \
            follows --location like an app view: strip (default) removes GPS, coarse rounds it, \
            keep leaves it.
            """,
        options: [
            .value("output", short: "o", "DIR", "the folder to write the JPEGs to (created if missing)"),
            .value("quality", "Q", "JPEG quality, 0.01-1.0 or 1-100 (default 0.8)"),
            .value("location", "POLICY", "strip (default), coarse or keep"),
            .value("jobs", short: "j", "N", "decoder processes to run at once (default: one per core)"),
            .flag("quiet", short: "q", "print only errors"),
        ]
    ) { arguments, environment throws(CLIError) in
        guard let output = arguments.value("output") else { throw .usage("transcode needs --output DIR") }
        guard !arguments.positionals.isEmpty else { throw .usage("missing argument FILE") }
        let qualityText = arguments.value("quality") ?? "0.8"
        guard let quality = JPEGQualityText.parse(qualityText) else {
            throw .usage("--quality must be 0.01-1.0 or 1-100, not '\(qualityText)'")
        }
        let policyText = arguments.value("location") ?? "strip"
        guard let location = LocationPolicy(rawValue: policyText) else {
            throw .usage("--location must be strip, coarse or keep, not '\(policyText)'")
        }
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let text = arguments.value("jobs") {
            guard let value = Int(text), value > 0 else { throw .usage("--jobs must be a positive whole number, not '\(text)'") }
            jobs = value
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw .failure("cannot create \(output): \(error.localizedDescription)")
        }
        let files = arguments.positionals
        let pool = DecoderPool(
            executable: environment.executablePath, size: jobs, timeLimit: 120, tunables: DecoderPool.reuseLargeBlocks)
        let failures = Mutex<[(String, String)]>([])
        let started = ProgressBar.now()
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension + ".jpg"
            do throws(ImagingError) {
                let absolute = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
                let made = try pool.image(.compatibleJPEG(path: Array(absolute.utf8), quality: quality, location: location))
                guard FileManager.default.createFile(atPath: output + "/" + name, contents: Data(made.bytes)) else {
                    throw ImagingError.io(path: output + "/" + name, errno: .ioError)
                }
            } catch {
                failures.withLock { $0.append((file, "\(error)")) }
            }
        }
        pool.shutdown()
        let failed = failures.withLock { $0 }
        for (file, reason) in failed { environment.output.error("\(file): \(reason)") }
        if !arguments.flag("quiet") {
            let seconds = String(format: "%.2f", ProgressBar.now() - started)
            environment.output.line("\(files.count - failed.count) transcoded, \(failed.count) failed in \(seconds) s; in \(output)")
        }
        return failed.isEmpty ? .success : .failure
    }
}
