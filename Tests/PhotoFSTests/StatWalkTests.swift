import Foundation
import Glibc
import PhotoCore
import Testing

@testable import FuseKit

/// Stat walks of folders larger than one READDIRPLUS reply: which chunks carry attributes
/// (`StatWalkers`), and through the kernel, that a walk sees every name with its type and
/// size whichever way its chunks came, and teaches the daemon that its program stats.
@Suite("FuseKit stat walks", .serialized)
struct StatWalkTests {
    @Test func aThreadThatLooksUpTheNamesItJustListedIsLearnedByItsProgram() throws {
        let walkers = StatWalkers()
        let tid = Self.threadID()
        #expect(!walkers.wantsAttributes(tid: tid, directory: 10), "nothing known: names alone")
        for _ in 0..<(StatWalkers.lookupsToLearn - 1) { walkers.lookedUp(tid: tid, parent: 10) }
        // Lookups since the last chunk: the next one carries attributes (the reader stats as it lists).
        #expect(walkers.wantsAttributes(tid: tid, directory: 10))
        // Not learned yet: another directory comes as names.
        #expect(!walkers.wantsAttributes(tid: tid, directory: 11))
        for _ in 0..<StatWalkers.lookupsToLearn { walkers.lookedUp(tid: tid, parent: 11) }
        #expect(walkers.wantsAttributes(tid: tid, directory: 12), "learned: every directory comes with attributes")
    }

    @Test func lookupsOfAnotherDirectoryTeachNothing() throws {
        let walkers = StatWalkers()
        let tid = Self.threadID()
        #expect(!walkers.wantsAttributes(tid: tid, directory: 20))
        for _ in 0..<(2 * StatWalkers.lookupsToLearn) { walkers.lookedUp(tid: tid, parent: 21) }
        #expect(!walkers.wantsAttributes(tid: tid, directory: 20))
        #expect(!walkers.wantsAttributes(tid: tid, directory: 22))
    }

    @Test func aProgramIsKnownByItsThreadsName() throws {
        let name = try #require(StatWalkers.programName(Self.threadID()))
        #expect(!name.isEmpty && !name.contains(UInt8(ascii: "\n")))
        #expect(StatWalkers.programName(-1) == nil)
    }

    /// This thread's id (what the kernel puts in its FUSE requests), from /proc/thread-self.
    static func threadID() -> Int32 {
        var link = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &link, link.count - 1)
        guard count > 0 else { return getpid() }
        let text = String(decoding: link.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Int32(text.split(separator: "/").last ?? "") ?? getpid()
    }

    /// `count` files of `size(index)` bytes in each of `big1/` and `big2/`.
    static let count = 3_000
    static func size(_ index: Int) -> Int { 1 + index % 7 }

    @Test(.enabled(if: FuseAvailability.available)) func aWalkSeesEveryNameTypeAndSizeAndIsLearned() throws {
        let library = TestLibrary()
        for folder in ["big1", "big2"] {
            for index in 0..<Self.count {
                try library.add(
                    Array("\(folder)/\(DirectoryListingTests.name(index).string)".utf8), [UInt8](repeating: 1, count: Self.size(index)))
            }
        }
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        // The first walk reads names alone past the first chunk, then looks each up; the
        // second (its program now known) gets attributes with every chunk. Both see the same.
        for folder in ["big1", "big2"] {
            let directory = try #require(mount.path("library/folders/\(folder)").cPath { opendir($0) })
            let listed = DirectoryListingTests.entries(directory)
            closedir(directory)
            #expect(listed.count == Self.count, "\(folder)")
            #expect(listed.allSatisfy { $0.1 == UInt8(DT_REG) }, "\(folder)")
            for (name, _) in listed {
                var status = stat()
                let path = mount.path(Array("library/folders/\(folder)/".utf8) + name)
                #expect(path.cPath { lstat($0, &status) } == 0)
                let index = Int(String(decoding: name, as: UTF8.self).split(separator: "-").last!.dropLast(4))!
                #expect(status.st_size == Self.size(index), "\(folder)")
            }
        }
        let program = try #require(StatWalkers.programName(Self.threadID()))
        #expect(mount.fileSystem.statWalkers.knows(program), "the first walk taught the daemon")
    }
}

extension Array where Element == UInt8 {
    fileprivate var string: String { String(decoding: self, as: UTF8.self) }
}
