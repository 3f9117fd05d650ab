import CFuse
import Glibc
import PhotoCore

/// READ, WRITE and the attributes of `.picker`, the control file.
///
/// The mount has no OPEN requests (OPEN answers ENOSYS, see `Read.swift`), so the control
/// file keeps no per-descriptor state and its pages live in the kernel's cache like any
/// file's. To keep reads true to the state: its attributes are never cached, every
/// GETATTR reports a new mtime, and the mount negotiates automatic data invalidation, so
/// every `read(2)` first refreshes the attributes, sees the mtime move and drops whatever
/// pages it held, and the READ reaches the daemon. A READ carries the descriptor's open
/// flags but a GETATTR does not, so the size reported is the longest text this caller may
/// read; the kernel trims the file at the end of a shorter READ reply.
///
/// Only the mounting user and root may write (the kernel refuses others from the 0600
/// mode under `default_permissions`; the daemon checks again). A write is one transaction
/// handed to the injected `ControlHandling`; on success what changed is dropped from the
/// kernel's caches before the write returns, on failure the write gets the errno and the writing thread's reads
/// through a descriptor open for writing (the one it wrote with, `O_RDWR`) return the
/// one-line reason for a few seconds (`PickerReasons`). Every other read (a fresh
/// `O_RDONLY` open, `cat .picker`) returns the rendered state.
extension PhotoFileSystem {
    /// The bytes a read of `.picker` by this request's thread returns, through a descriptor
    /// opened with `flags`.
    func controlText(for request: fuse_req_t, flags: Int32) -> [UInt8] {
        if flags & O_ACCMODE != O_RDONLY, let pid = fuse_req_ctx(request)?.pointee.pid, let reason = pickerReasons.reason(for: pid) {
            return reason
        }
        return renderedControl()
    }

    /// The size `.picker` reports to this request's caller: the longest text its next read
    /// may return (see the type's comment).
    func controlSize(for request: fuse_req_t) -> Int {
        let rendered = renderedControl().count
        guard let pid = fuse_req_ctx(request)?.pointee.pid, let reason = pickerReasons.reason(for: pid) else { return rendered }
        return max(rendered, reason.count)
    }

    private func renderedControl() -> [UInt8] {
        control?.render() ?? Array("photofs: this mount has no picker\n".utf8)
    }

    /// A fresh mtime for every GETATTR of `.picker` (see the type's comment): the mount's
    /// start time plus a counter in nanoseconds.
    func nextControlTime() -> timespec {
        let tick = controlTicks.add(1, ordering: .relaxed).newValue
        let nanoseconds = startTime.tv_nsec + tick % 1_000_000_000
        return timespec(tv_sec: startTime.tv_sec + tick / 1_000_000_000 + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }

    func readControl(_ request: fuse_req_t, _ size: Int, _ offset: Int, flags: Int32) {
        respond(request, "read .picker") { () throws(FileSystemError) -> Reply in
            guard offset >= 0, size >= 0 else { throw .invalidArgument }
            let tree = self.tree
            guard try caller(of: request, in: tree) == .owner else { throw .accessDenied }
            let text = controlText(for: request, flags: flags)
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
            guard inode == ViewInode.picker else { throw .readOnly }
            let tree = self.tree
            let caller = try caller(of: request, in: tree)
            _ = try visibleNode(ViewInode.picker, in: tree, to: caller)
            guard caller == .owner else { throw .accessDenied }
            let context = fuse_req_ctx(request)?.pointee
            let thread = context?.pid ?? 0
            guard let control else {
                pickerReasons.set(Array("photofs: this mount has no picker\n".utf8), for: thread)
                throw .readOnly
            }
            let input = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
            switch control.execute(input, caller: context?.uid ?? configuration.ownerUID) {
            case .success(let changes):
                pickerReasons.clear(for: thread)
                forget(changes)
                return .written(size)
            case .failure(let code, let reason):
                let line = reason.hasSuffix("\n") ? reason : reason + "\n"
                pickerReasons.set(Array(line.utf8), for: thread)
                throw .refused(errno: code)
            }
        }
    }
}
