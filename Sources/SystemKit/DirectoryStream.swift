import Glibc

/// An open directory read entry by entry (`fdopendir`, `readdir`), names read in place:
/// an entry's name points into the stream's own buffer, so reading a folder of any size
/// copies and allocates nothing per name. A value, not an owner: whoever opened it closes
/// it (`close()`), which also closes its descriptor.
public struct DirectoryStream {
    @usableFromInline let stream: OpaquePointer

    /// The stream of the directory open as `descriptor`, which it takes over. When it
    /// fails, the descriptor is still open and still the caller's.
    public static func open(_ descriptor: FileDescriptor) throws(Errno) -> DirectoryStream {
        guard let stream = fdopendir(descriptor.rawValue) else { throw .current }
        return DirectoryStream(stream: stream)
    }

    private init(stream: OpaquePointer) { self.stream = stream }

    /// The directory's descriptor, for calls relative to it (`openAt`, `status(of:)`);
    /// closed with the stream.
    public var descriptor: FileDescriptor { FileDescriptor(rawValue: dirfd(stream)) }

    /// Closes the stream and its descriptor.
    public func close() { _ = closedir(stream) }

    /// One entry as `readdir` gave it: valid until the next `next()` or `close()`.
    public struct Entry {
        @usableFromInline let entry: UnsafeMutablePointer<dirent>

        @usableFromInline init(_ entry: UnsafeMutablePointer<dirent>) { self.entry = entry }

        /// The name's bytes in place (no NUL): any bytes but `/` and NUL.
        @inlinable
        public var name: UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: nameStart, count: strlen(UnsafeRawPointer(nameStart).assumingMemoryBound(to: CChar.self)))
        }

        /// The first byte of the name (every name has one).
        @inlinable
        public var firstByte: UInt8 { nameStart.pointee }

        /// Whether the directory says this is a folder (`d_type`); false also when it does
        /// not say (some file systems never do: ask `status(of:)`).
        @inlinable
        public var isKnownDirectory: Bool { entry.pointee.d_type == UInt8(DT_DIR) }

        @usableFromInline var nameStart: UnsafePointer<UInt8> {
            UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(to: UInt8.self)
        }
    }

    /// The next entry (`.` and `..` included), nil at the end; the errno when the
    /// directory could not be read further.
    public func next() throws(Errno) -> Entry? {
        errno = 0
        guard let entry = readdir(stream) else {
            if errno != 0 { throw .current }
            return nil
        }
        return Entry(entry)
    }

    /// The status of `entry` itself, a symbolic link not followed (`fstatat` with
    /// AT_SYMLINK_NOFOLLOW on the name in place).
    public func status(of entry: Entry) throws(Errno) -> FileStatus {
        var raw = stat()
        let name = UnsafeRawPointer(entry.nameStart).assumingMemoryBound(to: CChar.self)
        _ = try Syscall.checked { fstatat(dirfd(stream), name, &raw, AT_SYMLINK_NOFOLLOW) }
        return FileStatus(raw)
    }
}
