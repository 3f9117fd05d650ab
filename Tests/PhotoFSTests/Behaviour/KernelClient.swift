import Foundation
import Glibc
import Synchronization
import TestSupport

/// The behaviour suite's client through a real kernel mount: every call is a system call
/// on the mount (stat, opendir/readdir, open/pread/close, write on `.picker`) and a
/// failure is the errno it set.
final class KernelClient: ViewClient {
    let mountpoint: String

    init(mountpoint: String) { self.mountpoint = mountpoint }

    private func full(_ path: String) -> String { path.isEmpty ? mountpoint : mountpoint + "/" + path }

    func stat(_ path: String) -> Result<Int64, ClientErrno> {
        status(path).map(\.size)
    }

    func status(_ path: String) -> Result<ClientStatus, ClientErrno> {
        var status = Glibc.stat()
        guard fstatat(AT_FDCWD, full(path), &status, 0) == 0 else { return .failure(ClientErrno(errno)) }
        return .success(
            ClientStatus(size: Int64(status.st_size), mode: status.st_mode, uid: status.st_uid))
    }

    func list(_ path: String) -> Result<[String], ClientErrno> {
        guard let directory = opendir(full(path)) else { return .failure(ClientErrno(errno)) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    func read(_ path: String, at offset: Int, size: Int) -> Result<[UInt8], ClientErrno> {
        open(path).flatMap { handle in
            defer { close(handle: handle) }
            var bytes = [UInt8](repeating: 0, count: size)
            let count = bytes.withUnsafeMutableBytes { pread(Int32(handle), $0.baseAddress, $0.count, off_t(offset)) }
            guard count >= 0 else { return .failure(ClientErrno(errno)) }
            return .success(Array(bytes[0..<count]))
        }
    }

    func readNow(_ path: String) -> Result<[UInt8], ClientErrno> {
        let fd = Glibc.open(full(path), O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ClientErrno(errno)) }
        defer { Glibc.close(fd) }
        return read(handle: Int(fd))
    }

    func readAnswered(_ path: String, after answer: () -> Void) -> Result<[UInt8], ClientErrno> {
        let fd = Glibc.open(full(path), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ClientErrno(errno)) }
        defer { Glibc.close(fd) }
        // The read waits on a thread of its own while this one answers.
        let outcome = Mutex<Result<[UInt8], ClientErrno>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let bytes = Self.readAll(fd)
            outcome.withLock { $0 = bytes }
            done.signal()
        }.start()
        // Long enough for the READ to reach the daemon and wait there.
        usleep(300_000)
        answer()
        guard done.wait(timeout: .now() + 10) == .success else { return .failure(ClientErrno(ETIMEDOUT)) }
        return outcome.withLock { $0 } ?? .failure(ClientErrno(EIO))
    }

    func open(_ path: String) -> Result<Int, ClientErrno> {
        let fd = Glibc.open(full(path), O_RDONLY | O_CLOEXEC)
        return fd >= 0 ? .success(Int(fd)) : .failure(ClientErrno(errno))
    }

    func read(handle: Int) -> Result<[UInt8], ClientErrno> {
        Self.readAll(Int32(handle))
    }

    /// Reads a descriptor from offset 0 to its end, in 64 KiB preads.
    static func readAll(_ fd: Int32) -> Result<[UInt8], ClientErrno> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(bytes.count)) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ClientErrno(errno))
            }
            if count == 0 { return .success(bytes) }
            bytes += chunk[0..<count]
        }
    }

    func close(handle: Int) { Glibc.close(Int32(handle)) }

    func writePicker(_ text: String) -> Int32 {
        write(".picker", Array(text.utf8), truncate: true)
    }

    func write(_ path: String, _ bytes: [UInt8], truncate: Bool) -> Int32 {
        let fd = Glibc.open(full(path), O_WRONLY | (truncate ? O_TRUNC : 0) | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { Glibc.close(fd) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        return written == bytes.count ? 0 : (written < 0 ? errno : EIO)
    }

    func access(_ path: String, write: Bool) -> Int32 {
        Glibc.access(full(path), write ? W_OK : R_OK) == 0 ? 0 : errno
    }

    func change(_ change: ClientChange) -> Int32 {
        let result: Int32
        switch change {
        case .create(let path):
            let fd = Glibc.open(full(path), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 { Glibc.close(fd) }
            result = fd >= 0 ? 0 : -1
        case .mkdir(let path): result = Glibc.mkdir(full(path), 0o755)
        case .unlink(let path): result = Glibc.unlink(full(path))
        case .rmdir(let path): result = Glibc.rmdir(full(path))
        case .rename(let path, let target): result = Glibc.rename(full(path), full(target))
        case .truncate(let path, let size): result = Glibc.truncate(full(path), off_t(size))
        case .chmod(let path, let mode): result = Glibc.chmod(full(path), mode_t(mode))
        case .symlink(let path, let target): result = Glibc.symlink(target, full(path))
        }
        return result == 0 ? 0 : errno
    }
}
