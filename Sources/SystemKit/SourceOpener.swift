import CSystem
import Glibc

/// The one way library files are opened for reading (the mount's READs, the picker's
/// previews, compatible JPEGs): a path can never lead outside the library, so no `..`, no
/// absolute path, and no symbolic link at any component; a folder swapped for a symlink
/// between indexing and a read makes the open fail instead of serving a file from
/// elsewhere. Uses openat2 (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) where the kernel has it,
/// and otherwise walks the path one component at a time with O_NOFOLLOW. `open(_:expecting:)`
/// also checks the file is still the version the catalog describes.
public struct SourceOpener: Sendable {
    /// The library root, opened by the owner of this opener (not closed by it).
    public let libraryFD: Int32

    public init(libraryFD: Int32) { self.libraryFD = libraryFD }

    /// The flags every source is opened with.
    public static let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY

    /// Why a source could not be opened as the catalogued version.
    public enum Failure: Error, Equatable, Sendable {
        /// It is there but is another version (size, inode or times differ, or it is no
        /// longer a regular file).
        case changed
        /// The open or `fstat` failed (ENOENT for a path that leaves the library,
        /// ELOOP/EXDEV/ENOTDIR for a symlink on the way).
        case system(Errno)
    }

    /// Opens the library folder at `root` (following links in `root` itself, as the mount
    /// does); the caller closes `libraryFD`.
    public static func library(at root: String) throws(Errno) -> SourceOpener {
        try library(at: Array(root.utf8))
    }

    /// Opens the library folder at `root` (bytes: names need not be UTF-8).
    public static func library(at root: [UInt8]) throws(Errno) -> SourceOpener {
        let fd = try FileDescriptor.open(root, [.readOnly, .directory])
        return SourceOpener(libraryFD: fd.rawValue)
    }

    /// Closes the library root (for an opener made by `library(at:)`).
    public func close() { FileDescriptor(rawValue: libraryFD).close() }

    /// Whether `path` is relative and has no `..` component: the check that comes before
    /// any open.
    public static func staysInsideLibrary(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, first != UInt8(ascii: "/") else { return false }
        var componentStart = 0
        for index in 0...bytes.count {
            guard index == bytes.count || bytes[index] == UInt8(ascii: "/") else { continue }
            if index - componentStart == 2, bytes[componentStart] == UInt8(ascii: "."), bytes[componentStart + 1] == UInt8(ascii: ".") {
                return false
            }
            componentStart = index + 1
        }
        return true
    }

    /// Opens `path` (relative to the library root) read-only, or throws why not.
    public func open(_ path: UnsafeBufferPointer<UInt8>) throws(Errno) -> FileDescriptor {
        guard Self.staysInsideLibrary(path), !path.contains(0) else { throw .noSuchFileOrDirectory }
        // The NUL-terminated name on the stack: every READ opens its source, so no heap copy.
        let opened = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: path.count + 1) { name in
            _ = name.initialize(fromContentsOf: path)
            name[path.count] = 0
            return name.withMemoryRebound(to: CChar.self) { terminated in
                Result { () throws(Errno) in
                    try Syscall.retrying { photofs_open_beneath(libraryFD, terminated.baseAddress!, Self.flags) }
                }
            }
        }
        do throws(Errno) {
            return FileDescriptor(rawValue: try opened.get())
        } catch {
            guard error == .noFunction else { throw error }
            return try openByComponents(path)
        }
    }

    /// Opens `path` and checks it is `version` (a regular file of that size, inode and
    /// times): otherwise listed sizes and redaction plans made for the catalogued file would
    /// be applied to another one.
    public func open(_ path: UnsafeBufferPointer<UInt8>, expecting version: FileStamp) throws(Failure) -> FileDescriptor {
        let fd: FileDescriptor
        let status: FileStatus
        do throws(Errno) {
            (fd, status) = try FileDescriptor.openedWithStatus { () throws(Errno) in try open(path) }
        } catch {
            throw .system(error)
        }
        guard version.matches(status) else {
            fd.close()
            throw .changed
        }
        return fd
    }

    /// The fallback for kernels without openat2: every directory on the way is opened with
    /// O_NOFOLLOW | O_DIRECTORY, the file with O_NOFOLLOW, each relative to the last.
    public func openByComponents(_ path: UnsafeBufferPointer<UInt8>) throws(Errno) -> FileDescriptor {
        guard Self.staysInsideLibrary(path), !path.contains(0) else { throw .noSuchFileOrDirectory }
        let components = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        guard let name = components.last else { throw .noSuchFileOrDirectory }
        var directory = libraryFD
        defer { if directory != libraryFD { Glibc.close(directory) } }
        for component in components.dropLast() {
            let next = try Syscall.retrying { Self.openat(directory, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            if directory != libraryFD { Glibc.close(directory) }
            directory = next
        }
        return FileDescriptor(rawValue: try Syscall.retrying { Self.openat(directory, name, Self.flags) })
    }

    private static func openat(_ directory: Int32, _ name: Slice<UnsafeBufferPointer<UInt8>>, _ flags: Int32) -> Int32 {
        (Array(name) + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Glibc.openat(directory, $0.baseAddress!, flags) }
        }
    }
}
