import Glibc
import PhotoCore

/// A fresh directory under $TMPDIR (or /tmp), removed with everything in it by `remove()`.
/// Paths are bytes so that tests can make names that are not UTF-8.
public final class TemporaryDirectory {
    public let path: [UInt8]

    public init() throws {
        let base = (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")
        var template = Array((base + "/photofs-catalog-test-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw TestFailure("mkdtemp failed: errno \(errno)")
        }
        path = template.dropLast().map { UInt8(bitPattern: $0) }
    }

    public var string: String { String(decoding: path, as: UTF8.self) }

    /// The absolute path of `relative` (bytes) inside the directory.
    public func child(_ relative: [UInt8]) -> [UInt8] { path + [UInt8(ascii: "/")] + relative }
    public func child(_ relative: String) -> [UInt8] { child(Array(relative.utf8)) }

    public func remove() {
        _ = FileOps.run(["/bin/rm", "-rf", string])
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Small file operations on byte paths, for building test libraries.
public enum FileOps {
    public static func cString<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// Writes `bytes` to the file at `path`, creating or truncating it, and missing parents.
    public static func write(_ bytes: [UInt8], to path: [UInt8]) throws {
        try makeDirectories(Array(path[..<(path.lastIndex(of: UInt8(ascii: "/")) ?? path.startIndex)]))
        let fd = cString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw TestFailure("open for writing failed: errno \(errno)") }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw TestFailure("write failed: errno \(errno)") }
            offset += n
        }
    }

    public static func read(_ path: [UInt8]) -> [UInt8]? {
        let fd = cString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return n == 0 ? out : nil }
            out.append(contentsOf: buffer[0..<n])
        }
    }

    public static func makeDirectories(_ path: [UInt8]) throws {
        var current: [UInt8] = []
        for component in path.split(separator: UInt8(ascii: "/")) {
            current += [UInt8(ascii: "/")] + component
            if cString(current, { mkdir($0, 0o755) }) != 0 && errno != EEXIST { throw TestFailure("mkdir failed: errno \(errno)") }
        }
    }

    public static func rename(_ from: [UInt8], _ to: [UInt8]) throws {
        try makeDirectories(Array(to[..<(to.lastIndex(of: UInt8(ascii: "/")) ?? to.startIndex)]))
        let rc = cString(from) { f in cString(to) { t in Glibc.rename(f, t) } }
        guard rc == 0 else { throw TestFailure("rename failed: errno \(errno)") }
    }

    public static func unlink(_ path: [UInt8]) throws {
        guard cString(path, { Glibc.unlink($0) }) == 0 else { throw TestFailure("unlink failed: errno \(errno)") }
    }

    public static func symlink(target: [UInt8], at path: [UInt8]) throws {
        guard cString(target, { t in cString(path) { p in Glibc.symlink(t, p) } }) == 0 else {
            throw TestFailure("symlink failed: errno \(errno)")
        }
    }

    public static func chmod(_ path: [UInt8], _ mode: mode_t) {
        _ = cString(path) { Glibc.chmod($0, mode) }
    }

    /// Sets the file's mtime (seconds and nanoseconds).
    public static func setMtime(_ path: [UInt8], seconds: Int, nanoseconds: Int = 0) {
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        _ = cString(path) { utimensat(AT_FDCWD, $0, &times, 0) }
    }

    /// Runs a program (absolute path) with arguments; returns its exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, arguments[0], nil, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xFF
    }
}

extension FileOps {
    /// The target of a symbolic link, as text.
    public static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
