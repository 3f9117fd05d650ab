import CFuse
import PhotoCore
import SystemKit

/// Every operation that would change the tree answers what `ViewLayer.changeTree` says (EROFS).
extension PhotoFileSystem {
    func refuseWrite(_ request: fuse_req_t, _ operation: StaticString) {
        respond(request, operation) { () throws(ViewLayerError) -> Reply in
            try layer.changeTree()
            return .done
        }
    }
}
