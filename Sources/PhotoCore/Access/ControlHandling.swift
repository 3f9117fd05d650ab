/// What writes to and reads of `.picker` are handed to: the picker language's parser and
/// executor over the catalog, injected by the executable so the view layer stays free of
/// SQLite.
public protocol ControlHandling: Sendable {
    /// Runs the commands of one `write(2)` as one transaction on behalf of `caller`
    /// (already known to be the mounting user or root).
    func execute(_ bytes: [UInt8], caller: UInt32) -> ControlOutcome
    /// The text a fresh open of `.picker` reads: the apps and their selections.
    func render() -> [UInt8]
}

/// The result of one control-file write.
public enum ControlOutcome: Sendable {
    /// Everything applied and the views were replaced: `changes` is what the kernel must
    /// forget (a revoked file, a changed listing), done before the write returns.
    case success(changes: ViewTreeChanges)
    /// Nothing applied: why (the writer's errno comes from it) and the one-line reason
    /// (which the CLI gets over the picker socket; `.picker` itself has nowhere per writer
    /// to show it).
    case failure(ViewLayerError, reason: String)
}
