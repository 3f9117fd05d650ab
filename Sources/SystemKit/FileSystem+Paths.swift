import Glibc

extension FileSystem {
    /// Whether `path` exists (`access(F_OK)`, following links).
    public static func exists(_ path: String) -> Bool { Glibc.access(path, F_OK) == 0 }

    /// Whether `path` exists (bytes: names need not be UTF-8).
    public static func exists(_ path: [UInt8]) -> Bool {
        guard !path.contains(0) else { return false }
        return (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { Glibc.access($0.baseAddress!, F_OK) == 0 }
        }
    }

    /// Whether this process's real user may run the file at `path` (`access(X_OK)`).
    public static func isExecutable(_ path: String) -> Bool { Glibc.access(path, X_OK) == 0 }

    /// Whether this process's real user may read and write the file at `path`.
    public static func isReadableAndWritable(_ path: String) -> Bool { Glibc.access(path, R_OK | W_OK) == 0 }

    /// Sets the permission bits of `path` (`chmod`).
    public static func setPermissions(_ path: String, _ mode: UInt32) throws(Errno) {
        _ = try Syscall.checked { chmod(path, mode_t(mode)) }
    }

    /// Makes a new private folder named `prefix` plus six random characters (`mkdtemp`);
    /// its path.
    public static func makeTemporaryDirectory(prefix: String) throws(Errno) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw .current }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in the folder at `path` (bytes), without `.` and `..`.
    public static func names(inDirectory path: [UInt8]) throws(Errno) -> [[UInt8]] {
        guard !path.contains(0) else { throw .invalidArgument }
        guard
            let folder = (path + [0]).withUnsafeBufferPointer({ name in
                name.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
            })
        else { throw .current }
        defer { closedir(folder) }
        var names: [[UInt8]] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        return names
    }
}

extension FileStatus {
    /// The status of `path` itself, not of what a final symbolic link points to (`lstat`).
    public static func ofLink(path: [UInt8]) throws(Errno) -> FileStatus {
        try of(path: path) { lstat($0, $1) }
    }

    /// The status of `path` itself (`lstat`).
    public static func ofLink(path: String) throws(Errno) -> FileStatus { try ofLink(path: Array(path.utf8)) }
}

extension FileDescriptor {
    /// Sets the access and modification times of the open file to `seconds` since 1970.
    public func setTimes(seconds: Int64) throws(Errno) {
        let time = timespec(tv_sec: Int(seconds), tv_nsec: 0)
        var times = [time, time]
        _ = try Syscall.checked { futimens(rawValue, &times) }
    }
}

extension FileSystem {
    /// What the symbolic link at `path` points to (`readlink`); nil when it is no link.
    public static func symbolicLinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
