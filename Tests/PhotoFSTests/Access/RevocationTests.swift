import Foundation
import Glibc
import Testing

/// Revocation through the kernel: a deselect (or clear, or app removal) takes effect before
/// the write returns. Descriptors opened earlier lose access (EACCES), the name is gone
/// from the listing at once, and a mapping made earlier is recorded for what it does.
@Suite("access: revocation through a real mount", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct RevocationTests {
    /// The errno of a `pread` on `fd`, 0 when it returned bytes.
    static func preadErrno(_ fd: Int32, offset: Int = 0, count: Int = 4096) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, count, off_t(offset)) }
        return read < 0 ? errno : (read == 0 ? -1 : 0)
    }

    @Test func openDescriptorsLoseAccessAndNamesVanish() throws {
        let fixture = try AccessFixture(count: 40, seed: 5)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let mnt = fixture.mountpoint
        let nameCounts = Dictionary(grouping: fixture.assets, by: \.fileName).mapValues(\.count)
        let candidates = fixture.assets.filter { !$0.hasLocation && nameCounts[$0.fileName] == 1 }
        try #require(candidates.count >= 5)
        let (a, b, c, d) = (candidates[0], candidates[1], candidates[2], candidates[3])
        #expect(PickerFile.write(mnt, "app add viewer\napp add second\nselect viewer \(a.id) \(b.id) \(c.id)\nselect second \(d.id)\n").succeeded)
        func viewPath(_ app: String, _ asset: AccessFixture.Asset) -> String { fixture.path("apps/\(app)/\(asset.fileName)") }

        // A mapping made before the revocation, in a child process (a SIGBUS must not kill the test).
        let mapper = Process()
        mapper.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        mapper.arguments = ["-c", Self.mapperScript, viewPath("viewer", b)]
        let toMapper = Pipe()
        let fromMapper = Pipe()
        mapper.standardInput = toMapper
        mapper.standardOutput = fromMapper
        try mapper.run()
        let mapped = fromMapper.fileHandleForReading.availableLine()
        #expect(mapped.hasPrefix("mapped"), "mapper: \(mapped)")

        // Open and read, then deselect: the same descriptor is refused, the name is gone.
        var descriptors: [Int32] = []
        defer { descriptors.forEach { close($0) } }
        let fd = open(viewPath("viewer", a), O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        descriptors.append(fd)
        let source = try ByteFiles.read(Array((fixture.library + "/" + a.path).utf8))
        let before = try ByteFiles.readAll(fd)
        #expect(before == source)
        #expect(Self.preadErrno(fd) == 0)
        #expect(PickerFile.write(mnt, "deselect viewer \(a.id) \(b.id)\n").succeeded)
        #expect(Self.preadErrno(fd) == EACCES, "read on a descriptor opened before the deselect")
        #expect(Self.preadErrno(fd, offset: 100, count: 10) == EACCES)
        let listing = try ByteFiles.list(Array(fixture.path("apps/viewer").utf8)).map { String(decoding: $0, as: UTF8.self) }
        #expect(listing == [c.fileName])
        #expect(statErrno(viewPath("viewer", a)) == ENOENT)
        #expect(openErrno(viewPath("viewer", a)) == ENOENT)
        var status = stat()
        let fstatCode = fstat(fd, &status) == 0 ? 0 : errno
        print("fstat on the revoked descriptor: \(fstatCode == 0 ? "answers (size \(status.st_size))" : String(cString: strerror(fstatCode)))")

        toMapper.fileHandleForWriting.write(Data("go\n".utf8))
        let after = fromMapper.fileHandleForReading.availableLine()
        mapper.waitUntilExit()
        let signalled = mapper.terminationReason == .uncaughtSignal
        print("mmap made before the deselect, touched after it: " + (signalled ? "the process got signal \(mapper.terminationStatus) (\(String(cString: strsignal(mapper.terminationStatus))))" : after))
        // Either the pages were dropped and the refault is refused (SIGBUS), or the pages
        // still mapped are what was granted: never anything else.
        #expect(signalled ? mapper.terminationStatus == SIGBUS : after.hasPrefix("same"), "mapper: \(after)")

        // clear and app remove revoke as well, and leave the other app alone.
        let fdC = open(viewPath("viewer", c), O_RDONLY | O_CLOEXEC)
        try #require(fdC >= 0)
        descriptors.append(fdC)
        let fdD = open(viewPath("second", d), O_RDONLY | O_CLOEXEC)
        try #require(fdD >= 0)
        descriptors.append(fdD)
        #expect(Self.preadErrno(fdC) == 0 && Self.preadErrno(fdD) == 0)
        #expect(PickerFile.write(mnt, "clear viewer\n").succeeded)
        #expect(Self.preadErrno(fdC) == EACCES)
        #expect(Self.preadErrno(fdD) == 0)
        #expect(try ByteFiles.list(Array(fixture.path("apps/viewer").utf8)).isEmpty)
        #expect(PickerFile.write(mnt, "app remove second\n").succeeded)
        #expect(Self.preadErrno(fdD) == EACCES)
        #expect(statErrno(fixture.path("apps/second")) == ENOENT)
        // Granting again gives a fresh open the bytes back; the old descriptors stay refused
        // (the daemon checks the asset is in the view again — document which).
        #expect(PickerFile.write(mnt, "select viewer \(a.id)\n").succeeded)
        #expect(try ByteFiles.read(Array(viewPath("viewer", a).utf8)) == source)
        let regrantedCode = Self.preadErrno(fd)
        print("a descriptor opened before a deselect, after the same asset is selected again: \(regrantedCode == 0 ? "reads again" : String(cString: strerror(regrantedCode)))")

        descriptors.forEach { close($0) }
        descriptors = []
        finished = true
        let end = fixture.finish()
        #expect(end.status == 0)
        #expect(end.descriptorGrowth <= 0, "the daemon gained \(end.descriptorGrowth) descriptors")
    }

    /// Maps a file, reads it, says `mapped`; on a line from stdin reads the mapping again and
    /// says `same` or `changed`.
    static let mapperScript = """
        import mmap, os, sys
        fd = os.open(sys.argv[1], os.O_RDONLY)
        m = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
        first = bytes(m[:])
        print("mapped %d" % len(first), flush=True)
        sys.stdin.readline()
        again = bytes(m[:])
        print("same" if again == first else "changed", flush=True)
        """
}

extension FileHandle {
    /// Reads one line (without the newline), byte by byte, blocking until it is there.
    func availableLine() -> String {
        var bytes: [UInt8] = []
        while true {
            let data = readData(ofLength: 1)
            guard let byte = data.first, byte != UInt8(ascii: "\n") else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
