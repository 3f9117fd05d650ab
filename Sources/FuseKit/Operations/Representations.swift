import Dispatch
import PhotoCore
import Synchronization

/// Compatible JPEGs made ahead of their first `stat`. The view layer makes, checks and reads
/// the files of nodes that serve another representation than the original
/// (`ViewLayer+Representations.swift`); the adapter only starts their making in the
/// background when views change.
extension PhotoFileSystem {
    /// Makes, in the background, the files of every node of the current views that serves
    /// another representation and is not made yet, several at once (the provider's decoder
    /// processes bound how many decode), so that a listing with sizes (`ls -l`) after a
    /// select finds them made. Called at mount and after every access change.
    public func prepareRepresentations() {
        guard configuration.representations != nil else { return }
        preparation.run { [layer] in
            let tree = layer.tree
            let pending = layer.representedNodes(in: tree)
            DispatchQueue.concurrentPerform(iterations: pending.count) { index in
                layer.prepareRepresentation(of: pending[index], in: tree)
            }
        }
    }
}

/// Runs the making of compatible JPEGs on a thread of its own, off every request path; a
/// change that arrives while one runs makes one more run after it, not one per change.
final class RepresentationPreparation: Sendable {
    /// Whether a run is under way, and the one asked for meanwhile.
    private let state = Mutex<(running: Bool, again: (@Sendable () -> Void)?)>((false, nil))

    func run(_ work: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool in
            if state.running {
                state.again = work
                return false
            }
            state.running = true
            return true
        }
        guard start else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            var next: (@Sendable () -> Void)? = work
            while let run = next {
                run()
                next = state.withLock { state in
                    defer { state.again = nil }
                    if state.again == nil { state.running = false }
                    return state.again
                }
            }
        }
    }
}
