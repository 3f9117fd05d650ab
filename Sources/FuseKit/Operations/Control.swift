import CFuse
import PhotoCore
import SystemKit

/// READ, WRITE and the attributes of `.picker`, the control file.
///
/// `.picker` is opened with direct I/O (`openControl`): a descriptor keeps the rendering
/// it was opened on and reads it whole, however the state changes meanwhile and whatever
/// others write, and every `write(2)` arrives as one WRITE, at any offset. Each state's
/// rendering is also an inode of its own (`PickerGenerations`): a lookup of `.picker`
/// (never cached) answers with the current one, so `stat` shows the size a fresh open reads.
///
/// Only the mounting user and root may write (the kernel refuses others from the 0600
/// mode under `default_permissions`; the daemon checks again). A write is one transaction
/// handed to the injected `ControlHandling`; on success what changed is dropped from the
/// kernel's caches before the write returns, on failure the write gets the errno (the
/// one-line reason goes to the CLI over its own socket, `PickerSocketServer`). A `write(2)`
/// the kernel may have split into several WRITE requests (one that fills `max_write`) is
/// refused whole with EFBIG, before any part of it runs.
extension PhotoFileSystem {
    /// The rendering a `.picker` inode stands for: the current one for the tree's own
    /// number; ESTALE for one the daemon no longer has.
    func pickerText(_ inode: UInt64) throws(ViewLayerError) -> PickerGenerations.Text {
        if inode == ViewInode.picker { return controlFile.generations.current(render: renderedControl) }
        guard let text = controlFile.generations.text(of: inode) else { throw .stale }
        return text
    }

    /// The current rendering, for a LOOKUP or listing entry of `.picker`.
    func currentPickerText() -> PickerGenerations.Text {
        controlFile.generations.current(render: renderedControl)
    }

    private func renderedControl() -> [UInt8] { layer.pickerText() }

    /// The mtime of a rendering's inode: when it was rendered, plus a nanosecond per write
    /// through it (each must change it, see `PickerGenerations.written`).
    func controlTime(_ text: PickerGenerations.Text) -> timespec {
        let nanoseconds = text.made.tv_nsec + Int(controlFile.generations.writes(through: text) % 1_000_000_000)
        return timespec(tv_sec: text.made.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }

    /// OPEN of `.picker` (the layer checked the caller): direct I/O, with the rendering the
    /// descriptor reads taken now. Its reads come from that rendering alone, never from
    /// pages another writer filled, and each `write(2)` reaches the daemon as one WRITE
    /// wherever it starts (the page cache would cut one that starts inside a page).
    func openControl(_ inode: UInt64) throws(ViewLayerError) -> Reply {
        .open(Handle(.picker(try pickerText(inode))), keepCache: false, directIO: true, cacheReaddir: false)
    }

    /// Whether a WRITE of `size` bytes at `offset` may be the first part of a larger
    /// `write(2)`: the kernel cuts a write at `max_write` bytes and at `max_pages` pages
    /// (of the file for a cached write, of the writer's buffer for a direct one, whose
    /// alignment the daemon cannot see).
    func mayBeSplit(size: Int, offset: Int, direct: Bool) -> Bool {
        let maxWrite = controlFile.maxWrite.load(ordering: .relaxed)
        let pageSize = Memory.pageSize
        let pageSpan = controlFile.maxWritePages.load(ordering: .relaxed) * pageSize
        if direct { return size >= min(maxWrite, pageSpan - pageSize) }
        return size >= maxWrite || offset % pageSize + size >= pageSpan
    }

    /// WRITE: the layer runs it (`ViewLayer.write`: EROFS but for `.picker` and the
    /// request files); this adds what follows in the kernel: a checked `.picker` write is run
    /// through its handler (whose change is forgotten before the reply), a request's expiry
    /// is scheduled (the broker itself posts requests and answers to the daemon).
    func write(
        _ request: fuse_req_t, _ inode: UInt64, _ bytes: UnsafePointer<CChar>?, _ size: Int, _ offset: Int,
        _ info: UnsafeMutablePointer<fuse_file_info>?
    ) {
        respond(request, "write") { () throws(ViewLayerError) -> Reply in
            let tree = self.tree
            let uid = fuse_req_ctx(request)?.pointee.uid ?? configuration.ownerUID
            let caller = try caller(of: request, in: tree)
            let input = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
            // A write that may be the first part of a larger one would run as a transaction
            // of its own, and the rest as others: the layer refuses it whole.
            let direct = info.map { $0.pointee.fh != 0 } ?? false
            let split = mayBeSplit(size: size, offset: offset, direct: direct)
            do throws(ViewLayerError) {
                switch try layer.write(
                    Self.treeInode(inode), input, uid: uid, caller: caller, in: tree, now: RequestFiles.now(), mayBeSplit: split)
                {
                case .picker(let write):
                    // Run here, not by the layer: the daemon's handler publishes the change
                    // (`ChangeQueue`) with no module of this request's path left on the stack.
                    switch write.handler.execute(write.bytes, caller: write.uid) {
                    case .success(let changes):
                        controlFile.generations.written(inode)
                        forget(changes)
                    case .failure(let error, _):
                        throw error
                    }
                case .request(let pending):
                    requests.written(pending)
                    requests.scheduleExpiry(of: pending)
                case .answered:
                    // The broker posted the answers and their events itself.
                    break
                }
                return .written(size)
            } catch .writeTooLarge {
                configuration.log(
                    "picker: uid \(uid) write refused: \(size) bytes at offset \(offset) may be part of a larger write(2), "
                        + "which the kernel splits; write less than \(controlFile.maxWrite.load(ordering: .relaxed)) bytes, or use the photofs CLI"
                )
                throw .writeTooLarge
            }
        }
    }
}
