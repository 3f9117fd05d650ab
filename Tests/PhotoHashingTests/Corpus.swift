import TestSupport

/// The shared photo corpus (found by `SharedCorpus`).
enum Corpus {
    static let directory = SharedCorpus.directory
}
