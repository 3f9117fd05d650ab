import Foundation
import Glibc
import SystemKit
import Testing

/// A READ opens its source through `SourceOpener`: a folder of the library swapped for a
/// symlink (after indexing, before a read) must never make the daemon read outside it.
@Suite struct SourceOpenerTests {
    /// A library with `Trips/2024/photo.jpg`, and outside it a directory with the same
    /// relative path and other bytes; the library's root descriptor.
    struct Layout {
        let root = NSTemporaryDirectory() + "photofs-opener-\(UUID().uuidString)"
        private(set) var libraryFD: Int32 = -1
        var library: String { root + "/library" }
        var outside: String { root + "/outside" }

        init() throws {
            for base in [library, outside] {
                try FileManager.default.createDirectory(atPath: base + "/Trips/2024", withIntermediateDirectories: true)
            }
            try Data("inside".utf8).write(to: URL(fileURLWithPath: library + "/Trips/2024/photo.jpg"))
            try Data("SECRET".utf8).write(to: URL(fileURLWithPath: outside + "/Trips/2024/photo.jpg"))
            libraryFD = Glibc.open(library, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }

        func remove() {
            close(libraryFD)
            try? FileManager.default.removeItem(atPath: root)
        }

        /// Replaces `Trips` in the library by a symlink to the outside directory's `Trips`.
        func swapFolderForSymlink() throws {
            try FileManager.default.removeItem(atPath: library + "/Trips")
            try FileManager.default.createSymbolicLink(atPath: library + "/Trips", withDestinationPath: outside + "/Trips")
        }
    }

    static func contents(of fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }

    let path = Array("Trips/2024/photo.jpg".utf8)

    /// The descriptor `open` gave, or -1 when it threw.
    static func descriptor(_ open: (UnsafeBufferPointer<UInt8>) throws(Errno) -> FileDescriptor, _ path: [UInt8]) -> Int32 {
        path.withUnsafeBufferPointer { bytes in (try? open(bytes))?.rawValue ?? -1 }
    }

    @Test func opensAFileBelowTheLibrary() throws {
        let layout = try Layout()
        defer { layout.remove() }
        let opener = SourceOpener(libraryFD: layout.libraryFD)
        for fd in [Self.descriptor(opener.open, path), Self.descriptor(opener.openByComponents, path)] {
            #expect(fd >= 0)
            #expect(Self.contents(of: fd) == "inside")
            close(fd)
        }
    }

    @Test func aFolderSwappedForASymlinkIsNotFollowed() throws {
        let layout = try Layout()
        defer { layout.remove() }
        try layout.swapFolderForSymlink()
        // Control: the plain openat the READ path used before follows the swapped folder.
        let plain = openat(layout.libraryFD, "Trips/2024/photo.jpg", O_RDONLY | O_NOFOLLOW)
        #expect(plain >= 0 && Self.contents(of: plain) == "SECRET")
        if plain >= 0 { close(plain) }

        let opener = SourceOpener(libraryFD: layout.libraryFD)
        for fd in [Self.descriptor(opener.open, path), Self.descriptor(opener.openByComponents, path)] {
            #expect(fd < 0, "a symlinked folder was followed")
            if fd >= 0 { close(fd) }
        }
    }

    @Test func aFileSwappedForASymlinkOrAPathOutsideIsRefused() throws {
        let layout = try Layout()
        defer { layout.remove() }
        try FileManager.default.removeItem(atPath: layout.library + "/Trips/2024/photo.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: layout.library + "/Trips/2024/photo.jpg", withDestinationPath: layout.outside + "/Trips/2024/photo.jpg")
        let opener = SourceOpener(libraryFD: layout.libraryFD)
        #expect(Self.descriptor(opener.open, path) < 0)
        #expect(Self.descriptor(opener.openByComponents, path) < 0)
        for escaping in ["../outside/Trips/2024/photo.jpg", "/etc/passwd", "Trips/../../outside/Trips/2024/photo.jpg"] {
            let fd = Self.descriptor(opener.open, Array(escaping.utf8))
            #expect(fd < 0, "\(escaping) was opened")
            if fd >= 0 { close(fd) }
        }
    }
}

/// The version check of `SourceOpener.open(_:expecting:)`.
@Suite struct SourceStampTests {
    @Test func anotherVersionIsRefused() throws {
        let layout = try SourceOpenerTests.Layout()
        defer { layout.remove() }
        let opener = SourceOpener(libraryFD: layout.libraryFD)
        let path = Array("Trips/2024/photo.jpg".utf8)
        let status = try FileStatus.of(path: layout.library + "/Trips/2024/photo.jpg")
        let version = status.stamp
        let fd = try path.withUnsafeBufferPointer { bytes throws(SourceOpener.Failure) in try opener.open(bytes, expecting: version) }
        fd.close()
        var other = version
        other.size += 1
        #expect(throws: SourceOpener.Failure.changed) {
            try path.withUnsafeBufferPointer { bytes throws(SourceOpener.Failure) in try opener.open(bytes, expecting: other) }
        }
        // A catalog that kept whole seconds matches any nanoseconds in that second.
        var seconds = version
        seconds.mtimeNanoseconds = status.mtimeSeconds * 1_000_000_000
        let again = try path.withUnsafeBufferPointer { bytes throws(SourceOpener.Failure) in try opener.open(bytes, expecting: seconds) }
        again.close()
    }

    @Test func errnoDescribesItself() {
        #expect(Errno.noSuchFileOrDirectory.rawValue == ENOENT)
        #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
        #expect(throws: Errno.badFileDescriptor) { try Syscall.retrying { close(-1) } }
    }
}
