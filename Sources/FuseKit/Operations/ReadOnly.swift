import CFuse
import Glibc
import PhotoCore

/// Every operation that would change the tree answers EROFS: photofs never writes to the
/// library, and views are computed, not stored.
extension PhotoFileSystem {
    func refuseWrite(_ request: fuse_req_t, _ operation: StaticString) {
        respond(request, operation) { () throws(ViewLayerError) -> Reply in throw .readOnly }
    }
}
