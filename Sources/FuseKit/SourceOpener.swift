import CFuse
import Glibc
import PhotoCore

/// Opens library files for READ so that a path can never lead outside the library: no
/// `..`, no absolute path, and no symbolic link at any component, so a folder swapped for a
/// symlink between indexing and a read makes the read fail instead of serving a file from
/// elsewhere. Uses openat2 (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) where the kernel has it,
/// and otherwise walks the path one component at a time with O_NOFOLLOW.
struct SourceOpener: Sendable {
    /// The library root, opened once by the file system.
    let libraryFD: Int32

    /// The flags every source is opened with.
    static let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY

    /// Opens `path` read-only; -1 with errno set when it does not name a regular path
    /// below the library (ENOENT for a path that leaves it, ELOOP/EXDEV/ENOTDIR for a symlink
    /// on the way).
    func open(_ path: LibraryPath) -> Int32 {
        guard path.staysInsideLibrary else {
            errno = ENOENT
            return -1
        }
        let fd = path.withBytes { $0.withCString { photofs_open_beneath(libraryFD, $0, Self.flags) } }
        if fd >= 0 || errno != ENOSYS { return fd }
        return openByComponents(path)
    }

    /// The fallback for kernels without openat2: every directory on the way is opened with
    /// O_NOFOLLOW | O_DIRECTORY, the file with O_NOFOLLOW, each relative to the last.
    func openByComponents(_ path: LibraryPath) -> Int32 {
        let components = path.components
        guard let name = components.last else {
            errno = ENOENT
            return -1
        }
        var directory = libraryFD
        defer { if directory != libraryFD { close(directory) } }
        for component in components.dropLast() {
            let next = component.withCString { openat(directory, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            guard next >= 0 else { return -1 }
            if directory != libraryFD { close(directory) }
            directory = next
        }
        return name.withCString { openat(directory, $0, Self.flags) }
    }
}
