/// `.picker`, the control file: only the mounting user and root may read or write it. A
/// write is one transaction handed to the injected `ControlHandling`; on success the
/// caller gets what the kernel must forget, on refusal the `ViewLayerError` the picker
/// error maps to (`ViewLayerError.init(_:)`).
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

    /// Runs one `write(2)` of picker commands by `uid` as one transaction and returns what
    /// the kernel must forget. `mayBeSplit`: the adapter cannot rule out that this is the
    /// first part of a larger write the kernel split, which is refused whole (EFBIG) rather
    /// than run as several transactions.
    public func writePicker(
        _ bytes: [UInt8], uid: UInt32, caller: ViewCaller, in tree: ViewTree, mayBeSplit: Bool = false
    ) throws(ViewLayerError) -> ViewTreeChanges {
        _ = try visibleNode(ViewInode.picker, in: tree, to: caller)
        guard caller == .owner else { throw .permissionDenied }
        guard let control else { throw .readOnly }
        if mayBeSplit { throw .writeTooLarge }
        switch control.execute(bytes, caller: uid) {
        case .success(let changes): return changes
        case .failure(let error, _): throw error
        }
    }
}
