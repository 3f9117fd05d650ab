import Foundation

/// The shared real-photo corpus: `PHOTOFS_CORPUS`, else `../shared/corpus` beside the
/// package root (found from this file's path); nil when absent, and tests then skip.
enum Corpus {
    static let directory: String? = {
        if let env = ProcessInfo.processInfo.environment["PHOTOFS_CORPUS"] {
            return FileManager.default.fileExists(atPath: env + "/manifest.json") ? env : nil
        }
        // Tests/PhotoMetadataTests/Corpus.swift → the package root is three levels up.
        var root = URL(fileURLWithPath: "\(#filePath)")
        for _ in 0..<3 { root.deleteLastPathComponent() }
        // A git worktree lives one level deeper than a clone; look beside both.
        for candidate in [root.appendingPathComponent("../shared/corpus"), root.appendingPathComponent("../../shared/corpus")] {
            let path = candidate.standardizedFileURL.path
            if FileManager.default.fileExists(atPath: path + "/manifest.json") { return path }
        }
        return nil
    }()

    /// The manifest's entries (exiftool's reading of each file), or nil without a corpus.
    static func manifest() -> [[String: Any]]? {
        guard let directory, let data = FileManager.default.contents(atPath: directory + "/manifest.json") else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
    }

    /// The bytes of a corpus file, or nil.
    static func bytes(_ relativePath: String) -> [UInt8]? {
        guard let directory, let data = FileManager.default.contents(atPath: directory + "/" + relativePath) else { return nil }
        return [UInt8](data)
    }
}
