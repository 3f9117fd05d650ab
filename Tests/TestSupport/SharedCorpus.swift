import Foundation
import Testing

/// Where the shared corpus of real photos is: `$PHOTOFS_CORPUS` when it holds a
/// `manifest.json`, else `corpus` in the `shared` folder beside the package root, else one
/// level further up (a git worktree lies one level deeper than a clone). Nil when absent:
/// the tests that need it skip with a message, or fail where skips are forbidden (`Skip`).
public enum SharedCorpus {
    public static let directory: String? = {
        let files = FileManager.default
        if let override = ProcessInfo.processInfo.environment["PHOTOFS_CORPUS"] {
            return files.isReadableFile(atPath: override + "/manifest.json") ? override : nil
        }
        // Tests/TestSupport/SharedCorpus.swift: the package root is three levels up.
        var root = URL(fileURLWithPath: "\(#filePath)")
        for _ in 0..<3 { root.deleteLastPathComponent() }
        for relative in ["../shared/corpus", "../../shared/corpus"] {
            let path = root.appendingPathComponent(relative).standardizedFileURL.path
            if files.isReadableFile(atPath: path + "/manifest.json") { return path }
        }
        return nil
    }()
}

extension SharedCorpus {
    /// The full paths of the corpus files at `relativePaths`, in their order, for a test that
    /// needs those very files; it is skipped (`Skip`) when the corpus or one of them is absent.
    public static func files(_ relativePaths: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        guard let directory else {
            try Skip.because("no corpus at ../shared/corpus and PHOTOFS_CORPUS unset", sourceLocation: sourceLocation)
        }
        let paths = relativePaths.map { directory + "/" + $0 }
        for (path, relative) in zip(paths, relativePaths) where !FileManager.default.fileExists(atPath: path) {
            try Skip.because("the corpus lacks \(relative)", sourceLocation: sourceLocation)
        }
        return paths
    }
}
