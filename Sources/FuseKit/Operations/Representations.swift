import Dispatch
import PhotoCore

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
        guard let provider = configuration.representations else { return }
        provider.prepareInBackground { [layer] in
            let tree = layer.tree
            let pending = layer.representedNodes(in: tree)
            DispatchQueue.concurrentPerform(iterations: pending.count) { index in
                layer.prepareRepresentation(of: pending[index], in: tree)
            }
        }
    }
}
