import SystemKit

/// The view layer's reader of library files: opens each source below the library root
/// with no symbolic links (`SourceOpener`), checks it is still the file the catalog
/// describes, reads with `pread` and closes it, so nothing holds a descriptor per inode.
/// Also reads the made files of other representations (compatible JPEGs) by their path.
public struct LibraryFileReader: SourceReading {
    /// The library root, opened by the owner of this reader.
    let libraryFD: Int32

    /// A reader below the open library directory `libraryFD` (not closed by the reader).
    public init(libraryFD: Int32) { self.libraryFD = libraryFD }

    public func read(_ asset: Asset, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ViewLayerError) -> Int {
        let fd = FileDescriptor(rawValue: try open(asset))
        defer { fd.close() }
        return try readAll(fd, at: offset, into: buffer)
    }

    public func checkSource(_ asset: Asset) throws(ViewLayerError) {
        FileDescriptor(rawValue: try open(asset)).close()
    }

    public func openSource(_ asset: Asset) throws(ViewLayerError) -> Int32 {
        try open(asset)
    }

    public func read(_ file: RepresentedFile, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ViewLayerError) -> Int? {
        guard let fd = try? FileDescriptor.open(file.path, .noFollow) else { return nil }
        defer { fd.close() }
        guard let status = try? fd.status(), status.kind == .regular, status.size == file.size else { return nil }
        return try readAll(fd, at: offset, into: buffer)
    }

    /// Reads from `fd` at `offset` until `buffer` is full or the file ends.
    private func readAll(_ fd: FileDescriptor, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ViewLayerError) -> Int {
        do throws(Errno) {
            return try fd.readAll(into: buffer, at: Int64(offset))
        } catch {
            throw .system(errno: error, call: "pread")
        }
    }

    /// Opens an asset's source and checks it is the file the catalog describes: otherwise
    /// the listed size is wrong and patch offsets may not fit (the watcher will catch up).
    /// The ctime is checked too: a same-size rewrite with its mtime set back keeps size and
    /// mtime, and must not be served under the old file's redaction plan; the inode too, so
    /// that a file put in another's place is refused even where the clocks are coarse. A
    /// mount serves its catalog before the startup scan has caught up with the library:
    /// this check is what keeps a file changed while unmounted from being served.
    private func open(_ asset: Asset) throws(ViewLayerError) -> Int32 {
        do throws(SourceOpener.Failure) {
            return try SourceOpener(libraryFD: libraryFD).open(asset).rawValue
        } catch {
            switch error {
            case .changed, .system(.noSuchFileOrDirectory): throw .stale
            case .system(let code): throw .system(errno: code, call: "open")
            }
        }
    }
}
