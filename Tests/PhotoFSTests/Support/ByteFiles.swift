import Glibc

/// File operations on byte paths with exact errnos, for tests that go through the kernel.
enum ByteFiles {
    struct Failure: Error, Equatable {
        let errno: Int32
    }

    static func write(_ path: [UInt8], _ bytes: [UInt8], mode: mode_t = 0o644) throws(Failure) {
        let fd = path.cPath { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw Failure(errno: errno) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            guard count > 0 else { throw Failure(errno: errno) }
            offset += count
        }
    }

    static func read(_ path: [UInt8]) throws(Failure) -> [UInt8] {
        let fd = path.cPath { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw Failure(errno: errno) }
        defer { close(fd) }
        return try readAll(fd)
    }

    static func readAll(_ fd: Int32, chunk: Int = 1 << 17) throws(Failure) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, chunk) }
            if count < 0 { throw Failure(errno: errno) }
            if count == 0 { return result }
            result += buffer[0..<count]
        }
    }

    static func stat(_ path: [UInt8]) throws(Failure) -> Glibc.stat {
        var status = Glibc.stat()
        guard path.cPath({ fstatat(AT_FDCWD, $0, &status, 0) }) == 0 else { throw Failure(errno: errno) }
        return status
    }

    /// The names in a directory in readdir order, without `.` and `..`.
    static func list(_ path: [UInt8]) throws(Failure) -> [[UInt8]] {
        guard let directory = path.cPath({ opendir($0) }) else { throw Failure(errno: errno) }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    /// The errno of a call that returns -1 on failure, or 0 when it succeeded.
    static func errnoOf(_ call: () -> Int32) -> Int32 {
        call() < 0 ? errno : 0
    }

    static func mkdirs(_ path: [UInt8]) {
        var current: [UInt8] = []
        for component in path.split(separator: UInt8(ascii: "/")) {
            current += [UInt8(ascii: "/")] + component
            _ = current.cPath { mkdir($0, 0o755) }
        }
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with the bytes as a NUL-terminated path.
    func cPath<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        let terminated = map { CChar(bitPattern: $0) } + [0]
        return terminated.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    static func + (lhs: [UInt8], rhs: String) -> [UInt8] { lhs + Array(rhs.utf8) }
}
