import CFuse
import PhotoCore
import SystemKit

/// STATFS: the library's file system sizes (what `df` shows is where the photos are),
/// photofs's own node count and the 255-byte name limit.
extension PhotoFileSystem {
    func statfs(_ request: fuse_req_t) {
        respond(request, "statfs") { () throws(ViewLayerError) -> Reply in
            var status = statvfs()
            guard fstatvfs(libraryFD, &status) == 0 else { throw .system(errno: .current, call: "fstatvfs") }
            status.f_files = fsfilcnt_t(tree.nodeCount)
            status.f_ffree = 0
            status.f_favail = 0
            status.f_namemax = 255
            return .statfs(status)
        }
    }
}
