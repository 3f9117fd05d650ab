import Glibc

/// The files a mount's app views show (`MOUNTPOINT/apps/APP/...`), for `photofs thumbnails
/// --mount`: file managers key thumbnails by the address they browse, so the same photo
/// under the mount needs its own thumbnail. Control files (names starting with a dot) and
/// anything but regular files and folders are skipped.
enum MountedFiles {
    /// The absolute paths (and their display forms) of the regular files under the mount's
    /// `apps` folder, in directory order.
    static func list(mountpoint: String) throws(CLIError) -> [(path: [UInt8], display: String)] {
        guard let resolved = realpath(mountpoint, nil) else {
            throw .failure("cannot open the mount \(mountpoint): \(String(cString: strerror(errno))).")
        }
        let root = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(root + "/apps", &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .failure("\(mountpoint) has no apps folder: is it a photofs mount?")
        }
        var found: [(path: [UInt8], display: String)] = []
        var pending = [Array((root + "/apps").utf8)]
        while let folder = pending.popLast() {
            guard
                let handle = (folder + [0]).withUnsafeBufferPointer({ name in
                    name.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
                })
            else { continue }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                guard let first = name.first, first != UInt8(ascii: ".") else { continue }
                let path = folder + [UInt8(ascii: "/")] + name
                var status = stat()
                let listed = (path + [0]).withUnsafeBufferPointer { full in
                    full.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &status) }
                }
                guard listed == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: pending.append(path)
                case S_IFREG: found.append((path, String(decoding: path, as: UTF8.self)))
                default: continue
                }
            }
        }
        return found
    }
}
