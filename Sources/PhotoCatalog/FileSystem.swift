// The few file-system calls the catalog needs outside SQLite: creating the catalog's
// directory, resolving real paths, reading the environment. Glibc is allowed here
// (PhotoCatalog is an adapter module); nothing else in the module calls it directly,
// except the library walker.
import Glibc

enum FileSystem {
    /// Creates the missing directories above `path` with mode 0700.
    static func createParentDirectories(of path: String) throws(CatalogError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !components.isEmpty else { return }
        components.removeLast()
        var current = path.hasPrefix("/") ? "" : "."
        for component in components {
            current += "/" + component
            if mkdir(current, 0o700) != 0 {
                let error = errno
                guard error == EEXIST else { throw .cannotCreateDirectory(path: current, errno: error) }
            }
        }
    }

    /// The canonical absolute path (symlinks resolved), or nil when it does not exist.
    static func realPath(_ path: [UInt8]) -> [UInt8]? {
        guard
            let resolved = (path + [0]).withUnsafeBufferPointer({ buffer in
                buffer.withMemoryRebound(to: CChar.self) { realpath($0.baseAddress, nil) }
            })
        else { return nil }
        defer { free(resolved) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
    }

    /// The canonical form of a path that may not exist yet: its nearest existing ancestor
    /// resolved, the rest appended unchanged (`.` and `..` in the rest are resolved by hand).
    static func realPathAllowingMissing(_ path: [UInt8], currentDirectory: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let absolute = path.first == slash ? path : currentDirectory + [slash] + path
        var parts = absolute.split(separator: slash).map(Array.init)
        var missing: [[UInt8]] = []
        while true {
            let candidate = [slash] + Array(parts.joined(separator: [slash]))
            if let resolved = realPath(candidate) {
                var result = resolved.split(separator: slash).map(Array.init)
                for part in missing.reversed() {
                    if part == [UInt8(ascii: ".")] { continue }
                    if part == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                        if !result.isEmpty { result.removeLast() }
                        continue
                    }
                    result.append(part)
                }
                return [slash] + Array(result.joined(separator: [slash]))
            }
            guard let last = parts.popLast() else { return absolute }
            missing.append(last)
        }
    }

    /// The current working directory's bytes.
    static func currentDirectory() -> [UInt8] {
        guard let cwd = getcwd(nil, 0) else { return [UInt8(ascii: "/")] }
        defer { free(cwd) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(cwd).assumingMemoryBound(to: UInt8.self), count: strlen(cwd)))
    }

    /// The current time in nanoseconds since 1970.
    static func nowNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
    }
}
