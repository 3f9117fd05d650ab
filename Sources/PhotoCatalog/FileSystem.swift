// The few file-system calls the catalog needs outside SQLite: creating the catalog's
// directory, resolving real paths, the wall clock. The calls themselves are SystemKit's.
import SystemKit

enum FileSystem {
    /// Creates the missing directories above `path` with mode 0700.
    static func createParentDirectories(of path: String) throws(CatalogError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !components.isEmpty else { return }
        components.removeLast()
        var current = path.hasPrefix("/") ? "" : "."
        for component in components {
            current += "/" + component
            do throws(Errno) {
                try SystemKit.FileSystem.makeDirectory(current, mode: 0o700)
            } catch {
                throw .cannotCreateDirectory(path: current, errno: error)
            }
        }
    }

    /// The canonical absolute path (symlinks resolved), or nil when it does not exist.
    static func realPath(_ path: [UInt8]) -> [UInt8]? {
        SystemKit.FileSystem.realPath(path)
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
        SystemKit.FileSystem.currentDirectory() ?? [UInt8(ascii: "/")]
    }

    /// The current time in nanoseconds since 1970.
    static func nowNanoseconds() -> Int64 {
        SystemClock.wallNanoseconds()
    }
}
