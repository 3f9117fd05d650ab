/// A `.picker` write the view layer checked (the owner's or root's, not possibly split by
/// the kernel), with the handler that runs it. The layer decides whether a write may run;
/// the caller that holds it (the FUSE adapter, the in-process client) hands it to
/// `handler` itself, so the handler's work (the catalog, the new views, what the kernel must
/// forget) never runs with the layer on the stack.
public struct PickerWrite: Sendable {
    public let bytes: [UInt8]
    /// Who wrote it (the mounting user or root), for the handler's log line.
    public let uid: UInt32
    public let handler: any ControlHandling
}

/// `.picker`, the control file: only the mounting user and root may read or write it. The
/// layer checks a write and answers it with a `PickerWrite`, which the caller hands to the
/// injected `ControlHandling` itself: on success what the kernel must forget, on refusal the
/// `ViewLayerError` the picker error maps to (`ViewLayerError.init(_:)`).
extension ViewLayer {
    /// The text a fresh read of `.picker` shows.
    public func pickerText() -> [UInt8] {
        guard let control else { return Self.noPicker }
        return markingRefusals(control.render(), in: tree)
    }

    /// Checks that `caller` may read `.picker` (EACCES otherwise).
    public func checkPickerRead(caller: ViewCaller) throws(ViewLayerError) {
        guard caller == .owner else { throw .permissionDenied }
    }

    /// Checks one `write(2)` of picker commands by `uid` and answers the write to run as one
    /// transaction (the caller hands it to `PickerWrite.handler`). `mayBeSplit`: the adapter cannot rule
    /// out that this is the first part of a larger write the kernel split, which is refused
    /// whole (EFBIG) rather than run as several transactions.
    public func writePicker(
        _ bytes: [UInt8], uid: UInt32, caller: ViewCaller, in tree: ViewTree, mayBeSplit: Bool = false
    ) throws(ViewLayerError) -> PickerWrite {
        _ = try visibleNode(ViewInode.picker, in: tree, to: caller)
        guard caller == .owner else { throw .permissionDenied }
        guard let control else { throw .readOnly }
        if mayBeSplit { throw .writeTooLarge }
        return PickerWrite(bytes: bytes, uid: uid, handler: control)
    }
}
