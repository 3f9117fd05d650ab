import FuseKit
import Glibc
import PhotoCore
import Synchronization
import SystemKit
import TestSupport

/// The behaviour suite's client over the view layer itself, through the entry points the
/// FUSE adapter calls for each request (`ViewLayer+Operations`: lookup, getattr, access,
/// setattr, open, read, write, changeTree; `openDirectory` and `page` for listings), with
/// the caller and the tree taken once per call as the adapter takes them, and errors
/// turned into errnos by the same table. It plays the kernel's part: a path is walked by
/// lookups, `O_TRUNC` is a SETATTR to size 0, a handle is the inode with what OPEN answered
/// (for `.picker`, the rendering it was opened on). Calls are made as `uid`.
final class InProcessClient: ViewClient {
    let layer: ViewLayer
    let uid: UInt32
    private var handles: [Int: (inode: UInt64, rendering: [UInt8]?)] = [:]
    private var nextHandle = 3

    /// Where the kernel may split a `write(2)` to a direct-I/O file: the adapter's rule
    /// (`PhotoFileSystem.mayBeSplit`) for the `max_write` of 1 MiB it negotiates.
    static let splitAt = (1 << 20) - 4096

    init(layer: ViewLayer, uid: UInt32) {
        self.layer = layer
        self.uid = uid
        // The kernel side's subscription to the answers of waiting reads (FuseKit's reply thread).
        layer.requests.answers.subscribe()
    }

    /// The caller and tree a request is answered with.
    private func request() throws(ViewLayerError) -> (ViewCaller, ViewTree) {
        let tree = layer.tree
        return (try layer.caller(uid: uid, in: tree), tree)
    }

    /// The inode a mount-relative path names, walking from the root (LOOKUP per name).
    func resolve(_ path: String) throws(ViewLayerError) -> UInt64 {
        var inode = ViewInode.root
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            let (caller, tree) = try request()
            inode = try layer.lookup(parent: inode, name: Array(component.utf8), caller: caller, in: tree).inode
            _ = try layer.getattr(inode, caller: caller, in: tree, now: 0)
        }
        return inode
    }

    private func attempt<T>(_ body: () throws(ViewLayerError) -> T) -> Result<T, ClientErrno> {
        do throws(ViewLayerError) {
            return .success(try body())
        } catch {
            return .failure(ClientErrno(error.errno))
        }
    }

    func stat(_ path: String) -> Result<Int64, ClientErrno> {
        status(path).map(\.size)
    }

    func status(_ path: String) -> Result<ClientStatus, ClientErrno> {
        attempt { () throws(ViewLayerError) in
            let inode = try resolve(path)
            let (caller, tree) = try request()
            let attributes = try layer.getattr(inode, caller: caller, in: tree, now: 0)
            // The adapter's type bits: a folder, or a regular file (a control file too).
            let type: UInt32 = attributes.kind == .directory ? 0o040_000 : 0o100_000
            return ClientStatus(size: attributes.size, mode: type | attributes.permissions, uid: attributes.uid)
        }
    }

    func list(_ path: String) -> Result<[String], ClientErrno> {
        attempt { () throws(ViewLayerError) in
            let inode = try resolve(path)
            let (caller, tree) = try request()
            // OPENDIR, then pages of a few entries, each from the then current views, as
            // the kernel pages a listing.
            let (_, listing) = try layer.openDirectory(inode, caller: caller, in: tree)
            var names: [String] = []
            var offset = 0
            while true {
                var page: [(String, Int)] = []
                layer.page(listing, from: offset, caller: caller, current: layer.tree) { node, next in
                    guard page.count < 2 else { return false }
                    page.append((String(decoding: node.name, as: UTF8.self), next))
                    return true
                }
                guard let last = page.last else { return names }
                names += page.map(\.0)
                offset = last.1
            }
        }
    }

    func read(_ path: String, at offset: Int, size: Int) -> Result<[UInt8], ClientErrno> {
        open(path).flatMap { handle in
            defer { close(handle: handle) }
            return attempt { () throws(ViewLayerError) in try readChunk(handle, at: offset, size: size) }
        }
    }

    func readNow(_ path: String) -> Result<[UInt8], ClientErrno> {
        read(path)
    }

    func readAnswered(_ path: String, after answer: () -> Void) -> Result<[UInt8], ClientErrno> {
        attempt { () throws(ViewLayerError) in
            let inode = try resolve(path)
            let (caller, tree) = try request()
            _ = try layer.open(inode, caller: caller, in: tree)
            // The READ registers a waiter, as the adapter's does, whose answer the broker
            // posts under its token; the adapter's reply thread takes it from there.
            let size = 1 << 16
            var buffer = [UInt8](repeating: 0, count: size)
            let result = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(ViewLayerError) -> ViewLayer.ReadAnswer in
                    try layer.read(inode, caller: caller, at: 0, size: size, into: raw, in: tree, now: 0, mayWait: true)
                }
            }
            switch try result.get() {
            case .waiting(let app, let token):
                answer()
                // The answer is posted while it is given: none queued means none was given.
                if case .pending = layer.requests.status(of: app) { throw .unexpected("the waiting read was never answered") }
                guard let posted = layer.requests.answers.take()?.last(where: { $0.tokens.contains(token) }) else {
                    throw .unexpected("the waiting read's answer was not posted")
                }
                return posted.answer.bytes
            case .text(let text):
                answer()
                return text
            case .filled(let count):
                answer()
                return Array(buffer[0..<count])
            case .picker:
                answer()
                return layer.pickerText()
            }
        }
    }

    func open(_ path: String) -> Result<Int, ClientErrno> {
        attempt { () throws(ViewLayerError) in
            let inode = try resolve(path)
            let (caller, tree) = try request()
            let opened = try layer.open(inode, caller: caller, in: tree)
            var rendering: [UInt8]?
            if case .picker = opened { rendering = layer.pickerText() }
            let handle = nextHandle
            nextHandle += 1
            handles[handle] = (inode, rendering)
            return handle
        }
    }

    func read(handle: Int) -> Result<[UInt8], ClientErrno> {
        attempt { () throws(ViewLayerError) in
            // In 64 KiB requests, as the kernel's readahead would.
            var bytes: [UInt8] = []
            while true {
                let chunk = try readChunk(handle, at: bytes.count, size: 1 << 16)
                if chunk.isEmpty { return bytes }
                bytes += chunk
            }
        }
    }

    /// One READ through an open handle; never waits (a pending request answers EAGAIN).
    private func readChunk(_ handle: Int, at offset: Int, size: Int) throws(ViewLayerError) -> [UInt8] {
        guard let (inode, rendering) = handles[handle] else { throw .system(errno: .badFileDescriptor, call: "read") }
        let (caller, tree) = try request()
        var bytes = [UInt8](repeating: 0, count: size)
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(ViewLayerError) -> ViewLayer.ReadAnswer in
                try layer.read(inode, caller: caller, at: offset, size: size, into: buffer, in: tree, now: 0)
            }
        }
        let text: [UInt8]
        switch try result.get() {
        case .filled(let count): return Array(bytes[0..<count])
        case .text(let answer): text = answer
        case .picker: text = rendering ?? layer.pickerText()
        case .waiting: throw .wouldBlock
        }
        let start = min(offset, text.count)
        return Array(text[start..<min(text.count, start + size)])
    }

    func close(handle: Int) { handles[handle] = nil }

    func writePicker(_ text: String) -> Int32 {
        write(".picker", Array(text.utf8), truncate: true)
    }

    func write(_ path: String, _ bytes: [UInt8], truncate: Bool) -> Int32 {
        attempt { () throws(ViewLayerError) in
            let inode = try resolve(path)
            var (caller, tree) = try request()
            _ = try layer.open(inode, caller: caller, in: tree)
            if truncate {
                _ = try layer.setattr(inode, .init(size: 0, beyondSizeAndTimes: false), caller: caller, in: tree, now: 0)
                (caller, tree) = try request()
            }
            let written = try layer.write(inode, bytes, uid: uid, caller: caller, in: tree, now: 0, mayBeSplit: bytes.count >= Self.splitAt)
            // A checked `.picker` write is run by the caller, as the adapter runs it.
            if case .picker(let write) = written, case .failure(let error, _) = write.handler.execute(write.bytes, caller: write.uid) {
                throw error
            }
        }.errnoCode
    }

    func access(_ path: String, write: Bool) -> Int32 {
        attempt { () throws(ViewLayerError) in
            let inode = try resolve(path)
            let (caller, tree) = try request()
            try layer.access(inode, write: write, caller: caller, in: tree)
        }.errnoCode
    }

    func change(_ change: ClientChange) -> Int32 {
        attempt { () throws(ViewLayerError) in
            let (caller, tree) = try request()
            switch change {
            case .truncate(let path, let size):
                _ = try layer.setattr(try resolve(path), .init(size: size, beyondSizeAndTimes: false), caller: caller, in: tree, now: 0)
            case .chmod(let path, _):
                _ = try layer.setattr(try resolve(path), .init(size: nil, beyondSizeAndTimes: true), caller: caller, in: tree, now: 0)
            case .create(let path), .mkdir(let path), .symlink(let path, _):
                // The kernel looks the name up first: one that exists answers EEXIST.
                try resolveParent(of: path)
                if (try? resolve(path)) != nil { throw .alreadyExists }
                try layer.changeTree()
            case .unlink(let path), .rmdir(let path):
                _ = try resolve(path)
                try layer.changeTree()
            case .rename(let path, let target):
                _ = try resolve(path)
                try resolveParent(of: target)
                try layer.changeTree()
            }
        }.errnoCode
    }

    /// Walks to the directory `path` is in.
    private func resolveParent(of path: String) throws(ViewLayerError) {
        _ = try resolve(path.split(separator: "/").dropLast().joined(separator: "/"))
    }
}
