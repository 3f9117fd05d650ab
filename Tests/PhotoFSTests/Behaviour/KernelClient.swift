import Glibc
import TestSupport

/// The behaviour suite's client through a real kernel mount: every call is a system call
/// on the mount (stat, opendir/readdir, open/pread/close, write on `.picker`) and a
/// failure is the errno it set.
final class KernelClient: ViewClient {
    let mountpoint: String

    init(mountpoint: String) { self.mountpoint = mountpoint }

    private func full(_ path: String) -> String { mountpoint + "/" + path }

    func stat(_ path: String) -> Result<Int64, ClientErrno> {
        var status = Glibc.stat()
        guard fstatat(AT_FDCWD, full(path), &status, 0) == 0 else { return .failure(ClientErrno(errno)) }
        return .success(Int64(status.st_size))
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

    func read(_ path: String) -> Result<[UInt8], ClientErrno> {
        open(path).flatMap { handle in
            defer { close(handle: handle) }
            return read(handle: handle)
        }
    }

    func open(_ path: String) -> Result<Int, ClientErrno> {
        let fd = Glibc.open(full(path), O_RDONLY | O_CLOEXEC)
        return fd >= 0 ? .success(Int(fd)) : .failure(ClientErrno(errno))
    }

    func read(handle: Int) -> Result<[UInt8], ClientErrno> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(Int32(handle), $0.baseAddress, $0.count, off_t(bytes.count)) }
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
        let fd = Glibc.open(full(".picker"), O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { Glibc.close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        return written == bytes.count ? 0 : (written < 0 ? errno : EIO)
    }
}
