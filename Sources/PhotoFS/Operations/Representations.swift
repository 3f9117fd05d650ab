import Dispatch
import Glibc
import PhotoCore

/// The files of nodes that serve another representation than the original (an app with
/// `--representation compatible` sees its HEIC photos as JPEG). The file is made by the
/// injected `RepresentationProviding` on the first LOOKUP or GETATTR that needs its size (or
/// before, when the daemon prepares it), so that the size is right from the first `stat`;
/// READ only reads the made file. Visibility, revocation and the source check are those of
/// originals: a READ first checks the caller may still see the inode and that the source is
/// still the catalogued file (ESTALE otherwise), then reads the ready JPEG.
extension PhotoFileSystem {
    /// The ready file of `node`, nil when it serves the original bytes.
    func representedFile(of node: ViewNode, asset: Asset) throws(FileSystemError) -> RepresentedFile? {
        try representedFile(of: node, asset: asset) { () throws(FileSystemError) -> Int32 in try openSource(asset) }
    }

    /// Makes, in the background, the files of every node of the current views that serves
    /// another representation and is not made yet, several at once (the provider's decoder
    /// processes bound how many decode), so that a listing with sizes (`ls -l`) after a
    /// select finds them made. Called at mount and after every access change.
    public func prepareRepresentations() {
        guard let provider = configuration.representations else { return }
        provider.prepareInBackground { [self] in
            let tree = self.tree
            let pending = tree.children(of: ViewInode.apps).flatMap { app in
                tree.children(of: app.inode).filter { $0.representation != .original }
            }
            DispatchQueue.concurrentPerform(iterations: pending.count) { index in
                guard let asset = tree.asset(of: pending[index]) else { return }
                _ = try? representedFile(of: pending[index], asset: asset)
            }
        }
    }

    /// The size `stat` shows for a file node: the made file's for another representation (0
    /// when it cannot be made; its LOOKUP and READ then fail with EIO), else the source's.
    func servedSize(of node: ViewNode, asset: Asset) -> Int64 {
        guard node.representation != .original else { return asset.size }
        return ((try? representedFile(of: node, asset: asset)) ?? nil)?.size ?? 0
    }

    /// Fails a LOOKUP or GETATTR of a node whose representation cannot be made, with the
    /// reason logged, rather than show a file whose every read fails.
    func checkRepresentation(of node: ViewNode, in tree: ViewTree) throws(FileSystemError) {
        guard node.representation != .original, let asset = tree.asset(of: node) else { return }
        _ = try representedFile(of: node, asset: asset)
    }

    /// READ of a node with another representation: the source is checked as for an
    /// original, then the made file is read (made again if the cache evicted it meanwhile).
    func readRepresented(_ node: ViewNode, asset: Asset, _ size: Int, _ offset: Int) throws(FileSystemError) -> Reply {
        let source = try openSource(asset)
        defer { close(source) }
        for _ in 0..<2 {
            guard
                let file = try representedFile(
                    of: node, asset: asset,
                    source: { () throws(FileSystemError) -> Int32 in
                        let copy = dup(source)
                        guard copy >= 0 else { throw .system(errno: errno, call: "dup") }
                        return copy
                    })
            else { break }
            let fd = file.path.withCString { Glibc.open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
            guard fd >= 0 else {
                configuration.representations?.forget(file)
                continue
            }
            defer { close(fd) }
            var status = stat()
            guard fstat(fd, &status) == 0, Int64(status.st_size) == file.size else {
                configuration.representations?.forget(file)
                continue
            }
            let buffer = buffers.buffer(atLeast: size)
            let wanted = min(size, buffer.count)
            var total = 0
            while total < wanted {
                let count = pread(fd, buffer.baseAddress! + total, wanted - total, off_t(offset + total))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw .system(errno: errno, call: "pread")
                }
                if count == 0 { break }
                total += count
            }
            return .bytes(UnsafeRawBufferPointer(rebasing: buffer[0..<total]))
        }
        throw .system(errno: EIO, call: "read of a compatible JPEG that the cache keeps losing")
    }

    private func representedFile(
        of node: ViewNode, asset: Asset, source: () throws(FileSystemError) -> Int32
    ) throws(FileSystemError) -> RepresentedFile? {
        guard node.representation != .original, case .file(_, let policy) = node.kind else { return nil }
        guard let provider = configuration.representations else {
            throw .system(errno: EIO, call: "serve a compatible JPEG without a representation provider")
        }
        do throws(RepresentationError) {
            return try provider.file(of: asset, as: node.representation, location: policy) { () throws(RepresentationError) -> Int32 in
                do throws(FileSystemError) {
                    return try source()
                } catch {
                    switch error {
                    case .stale: throw .sourceChanged
                    case .system(let code, _): throw .sourceUnreadable(errno: code)
                    default: throw .sourceUnreadable(errno: error.errno)
                    }
                }
            }
        } catch {
            switch error {
            case .sourceChanged: throw .stale
            case .sourceUnreadable(let code): throw .system(errno: code, call: "open the source of a compatible JPEG")
            case .cacheUnwritable(let code): throw .system(errno: code, call: "store a compatible JPEG")
            case .cannotConvert(let reason): throw .system(errno: EIO, call: "make a compatible JPEG (\(reason))")
            }
        }
    }
}
