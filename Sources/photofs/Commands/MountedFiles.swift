import SystemKit

/// The files a mount's app views show (`MOUNTPOINT/apps/APP/...`), for `photofs thumbnails
/// --mount`: file managers key thumbnails by the address they browse, so the same photo
/// under the mount needs its own thumbnail. Control files (names starting with a dot) and
/// anything but regular files and folders are skipped.
enum MountedFiles {
    /// The absolute paths (and their display forms) of the regular files under the mount's
    /// `apps` folder, in directory order.
    static func list(mountpoint: String) throws(CLIError) -> [(path: [UInt8], display: String)] {
        guard let resolved = FileSystem.realPath(Array(mountpoint.utf8)) else {
            throw .failure("cannot open the mount \(mountpoint): \(Errno.current).")
        }
        let root = String(decoding: resolved, as: UTF8.self)
        guard (try? FileStatus.of(path: root + "/apps"))?.kind == .directory else {
            throw .failure("\(mountpoint) has no apps folder: is it a photofs mount?")
        }
        var found: [(path: [UInt8], display: String)] = []
        var pending = [Array((root + "/apps").utf8)]
        while let folder = pending.popLast() {
            guard let names = try? FileSystem.names(inDirectory: folder) else { continue }
            for name in names {
                guard let first = name.first, first != UInt8(ascii: ".") else { continue }
                let path = folder + [UInt8(ascii: "/")] + name
                guard let status = try? FileStatus.ofLink(path: path) else { continue }
                switch status.kind {
                case .directory: pending.append(path)
                case .regular: found.append((path, String(decoding: path, as: UTF8.self)))
                default: continue
                }
            }
        }
        return found
    }
}
