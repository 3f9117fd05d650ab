import FuseKit
import Glibc
import PhotoCore
import TestSupport

/// The behaviour suite's client over the view layer itself: paths are walked with
/// `ViewLayer.lookup`, files read with `ViewLayer.read`, errors turned into errnos by the
/// same table the FUSE adapter uses. An open handle is the inode number, which is all the
/// kernel holds for an open file of the mount (it sends no OPEN). Calls are made as `uid`.
final class InProcessClient: ViewClient {
    let layer: ViewLayer
    let uid: UInt32

    init(layer: ViewLayer, uid: UInt32) {
        self.layer = layer
        self.uid = uid
    }

    /// The inode a mount-relative path names, walking from the root.
    func resolve(_ path: String) throws(ViewLayerError) -> UInt64 {
        var inode = ViewInode.root
        for component in path.split(separator: "/") {
            switch try layer.lookup(parent: inode, name: Array(component.utf8), uid: uid) {
            case .node(let child): inode = child
            case .special(let special): inode = special.inode
            }
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
        attempt { () throws(ViewLayerError) in try layer.getattr(try resolve(path), uid: uid).size }
    }

    func list(_ path: String) -> Result<[String], ClientErrno> {
        attempt { () throws(ViewLayerError) in
            // Paged as the kernel pages it, a few entries at a time.
            var names: [String] = []
            var offset = 0
            let inode = try resolve(path)
            while true {
                let page = try layer.readdir(inode, uid: uid, offset: offset, count: 2)
                guard let last = page.last else { return names }
                names += page.map { String(decoding: $0.name, as: UTF8.self) }
                offset = last.next
            }
        }
    }

    func read(_ path: String) -> Result<[UInt8], ClientErrno> {
        attempt { () throws(ViewLayerError) in try readAll(try resolve(path)) }
    }

    func open(_ path: String) -> Result<Int, ClientErrno> {
        attempt { () throws(ViewLayerError) in
            let inode = try resolve(path)
            // An open of a file the caller may not read fails as the kernel's would.
            _ = try layer.read(inode, uid: uid, offset: 0, size: 0)
            return Int(truncatingIfNeeded: inode)
        }
    }

    func read(handle: Int) -> Result<[UInt8], ClientErrno> {
        attempt { () throws(ViewLayerError) in try readAll(UInt64(truncatingIfNeeded: handle)) }
    }

    func close(handle: Int) {}

    func writePicker(_ text: String) -> Int32 {
        attempt { () throws(ViewLayerError) in _ = try layer.writePicker(Array(text.utf8), uid: uid) }.errnoCode
    }

    /// Reads in 64 KiB requests, as the kernel's readahead would.
    private func readAll(_ inode: UInt64) throws(ViewLayerError) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let chunk = try layer.read(inode, uid: uid, offset: bytes.count, size: 1 << 16)
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }
}
