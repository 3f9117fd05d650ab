import Foundation

/// The shared photo corpus: `$PHOTOFS_CORPUS`, else `<package root>/../shared/corpus`, else
/// (a git worktree one level deeper, `/work/wt/<name>`) `<package root>/../../shared/corpus`.
/// Nil when absent: tests that need it print a message and skip.
enum CorpusLocation {
    static let directory: String? = {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["PHOTOFS_CORPUS"] {
            return fm.isReadableFile(atPath: env + "/manifest.json") ? env : nil
        }
        var root = "\(#filePath)"
        for _ in 0..<4 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
        return [root + "/../shared/corpus", root + "/../../shared/corpus"].first { fm.isReadableFile(atPath: $0 + "/manifest.json") }
    }()

    /// The manifest's entries: path and sha256 of every file.
    static func manifest() throws -> [(path: String, sha256: String)] {
        guard let directory else { return [] }
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))
        guard let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw TestFailure("manifest is not a list")
        }
        return entries.compactMap { entry in
            guard let path = entry["path"] as? String, let sha = entry["sha256"] as? String else { return nil }
            return (path, sha)
        }
    }
}
