import CFuse
import Glibc
import PhotoCore

/// OPEN, READ and WRITE of `.picker`, the control file.
///
/// Opened with `direct_io` so reads are never cut at a cached size, attributes never
/// cached. Only the mounting user and root may open it. A write is one transaction
/// handed to the injected `ControlHandling`; on success the new snapshot is shown before
/// the write returns, on failure the write gets the errno and later reads of the same
/// open return the one-line reason. A fresh open reads the rendered state.
extension PhotoFileSystem {
    func openControl(_ request: fuse_req_t, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        respond(request, "open .picker", info: info) { () throws(FileSystemError) -> Reply in
            let tree = self.tree
            let caller = try caller(of: request, in: tree)
            _ = try visibleNode(ViewInode.picker, in: tree, to: caller)
            guard caller == .owner else { throw .accessDenied }
            let uid = fuse_req_ctx(request)?.pointee.uid ?? configuration.ownerUID
            return .open(Handle(.control(OpenControl(caller: uid))), keepCache: false, directIO: true, cacheReaddir: false)
        }
    }

    func readControl(_ request: fuse_req_t, _ control: OpenControl, _ size: Int, _ offset: Int) {
        respond(request, "read .picker") { () throws(FileSystemError) -> Reply in
            guard offset >= 0, size >= 0 else { throw .invalidArgument }
            let text = control.state.withLock { state -> [UInt8] in
                if let text = state.text { return text }
                let rendered = self.control?.render() ?? []
                state.text = rendered
                return rendered
            }
            let start = min(offset, text.count)
            let end = min(text.count, start + min(size, text.count - start))
            let buffer = buffers.buffer(atLeast: end - start)
            text.withUnsafeBytes { source in
                if end > start { buffer.baseAddress!.copyMemory(from: source.baseAddress! + start, byteCount: end - start) }
            }
            return .bytes(UnsafeRawBufferPointer(rebasing: buffer[0..<(end - start)]))
        }
    }

    func write(
        _ request: fuse_req_t, _ inode: UInt64, _ bytes: UnsafePointer<CChar>?, _ size: Int, _ info: UnsafeMutablePointer<fuse_file_info>?
    ) {
        respond(request, "write") { () throws(FileSystemError) -> Reply in
            guard inode == ViewInode.picker, let number = info?.pointee.fh, let handle = Handle.borrow(number),
                case .control(let open) = handle.kind
            else { throw .readOnly }
            guard let control else {
                open.state.withLock { $0.text = Array("photofs: this mount has no picker\n".utf8) }
                throw .readOnly
            }
            let input = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
            switch control.execute(input, caller: open.caller) {
            case .success(let snapshot):
                open.state.withLock { $0.text = nil }
                if let snapshot { install(snapshot) }
                return .written(size)
            case .failure(let code, let reason):
                let line = reason.hasSuffix("\n") ? reason : reason + "\n"
                open.state.withLock { $0.text = Array(line.utf8) }
                throw .refused(errno: code)
            }
        }
    }
}
