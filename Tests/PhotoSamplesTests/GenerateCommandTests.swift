import Foundation
import MediaFormats
import TestSupport
import Testing

@testable import PhotoSamples

/// `photofs generate` and `photofs demo` as a user runs them: the built binary, real
/// directories, exit codes.
@Suite(.enabled(if: ExternalTools.photofs != nil, "the photofs binary is not built (swift build)"))
struct GenerateCommandTests {
    func photofs(_ arguments: String...) throws -> ExternalTools.Result {
        try ExternalTools.run(try #require(ExternalTools.photofs), arguments)
    }

    @Test func writesThePlannedBytesWithCaptureTimesAsMtimes() throws {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("new/library").path
        let result = try photofs("generate", target, "--count", "25", "--seed", "11")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Wrote 25 photos"))

        let library = SampleLibrary(seed: 11, count: 25)
        let written = try FileManager.default.subpathsOfDirectory(atPath: target).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".JPG") }
        #expect(Set(written) == Set(library.photos.map(\.relativePath)))
        for (index, photo) in library.photos.enumerated() {
            let path = target + "/" + photo.relativePath
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes == (try library.file(at: index).bytes), "\(photo.relativePath)")
            let modified = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
            #expect(Int64(modified.timeIntervalSince1970) == photo.modificationTime)
        }
    }

    @Test func refusesANonEmptyDirectoryUnlessForced() throws {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("x".utf8).write(to: directory.appendingPathComponent("keep.txt"))
        let refused = try photofs("generate", directory.path, "--count", "3")
        #expect(refused.status == 5)
        #expect(refused.stderr.contains("not empty") && refused.stderr.contains("--force"))
        let forced = try photofs("generate", directory.path, "--count", "3", "--force")
        #expect(forced.status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("keep.txt").path))
    }

    @Test(arguments: [["--count", "0"], ["--count", "many"], ["--seed", "-1"], []])
    func rejectsBadArgumentsAsUsageErrors(extra: [String]) throws {
        let arguments = ["generate"] + (extra.isEmpty ? [] : ["/nonexistent-photofs-test"] + extra)
        let result = try ExternalTools.run(try #require(ExternalTools.photofs), arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-photofs-test"))
    }

}
