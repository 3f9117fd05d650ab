import Glibc

extension FileSystem {
    /// Gives the file at `source` a second name, `target` (`link(2)`): fails with EEXIST
    /// when `target` exists, so nothing there is ever replaced.
    public static func link(_ source: String, to target: String) throws(Errno) {
        _ = try Syscall.checked { Glibc.link(source, target) }
    }
}

extension FileDescriptor {
    /// Waits until the file's data (and the size and other metadata needed to read it
    /// back) is on the disk (`fdatasync(2)`). On a directory's descriptor it makes the
    /// names in it durable.
    public func synchronizeData() throws(Errno) {
        _ = try Syscall.retrying { fdatasync(rawValue) }
    }
}

extension CurrentProcess {
    /// Whether a process with id `id` exists now on this machine (it may belong to
    /// another user). A reused id answers yes.
    public static func processExists(_ id: Int32) -> Bool {
        guard id > 0 else { return false }
        return Glibc.kill(id, 0) == 0 || errno == EPERM
    }
}
