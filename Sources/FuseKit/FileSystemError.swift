import PhotoCore
import SystemKit

/// Which view layer errors the dispatcher logs; their errnos come from PhotoCore's one table
/// (`ViewLayerError.code`), and anything unexpected becomes EIO.
extension ViewLayerError {
    /// Whether the failure should be logged (it says something about the daemon or the library).
    var isWorthLogging: Bool {
        switch self {
        case .unexpected, .representationUnavailable, .planUnavailable: true
        case .system(let code, _): code != .noSuchFileOrDirectory
        default: false
        }
    }
}
