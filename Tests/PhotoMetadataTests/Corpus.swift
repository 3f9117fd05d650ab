import Foundation
import TestSupport

/// The shared real-photo corpus (found by `SharedCorpus`), its manifest and its files; nil
/// when absent, and tests then skip.
enum Corpus {
    static let directory = SharedCorpus.directory

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
