import CatalogTestSupport
import Foundation
import TestSupport

/// The shared photo corpus (found by `SharedCorpus`) and its manifest. Nil when absent:
/// tests that need it print a message and skip.
enum CorpusLocation {
    static let directory = SharedCorpus.directory

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
