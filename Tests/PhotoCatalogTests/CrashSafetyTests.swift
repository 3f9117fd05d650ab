import CatalogTestSupport
import Glibc
import PhotoCore
import Testing

@testable import PhotoCatalog

/// `kill -9` of a process in the middle of a stream of grant writes: every write that had
/// returned before the kill must be in the catalog afterwards. The writer is this test
/// binary itself, started again with `PHOTOFS_CRASH_CHILD` set so that only
/// `grantWriterChild` does anything in it.
@Suite("Crash safety")
struct CrashSafetyTests {
    static let childVariable = "PHOTOFS_CRASH_CHILD"

    static func grantedID(_ n: Int) -> AssetID {
        let hex = String(n, radix: 16)
        return AssetID(String(repeating: "0", count: 12 - hex.count) + hex)!
    }

    @Test(arguments: [Durability.processCrash, .powerLoss])
    func everyReturnedGrantWriteSurvivesKill9(durability: Durability) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalogPath = dir.string + "/c.sqlite"
        let progressPath = dir.string + "/progress"
        try FileOps.write([], to: Array(progressPath.utf8))

        var pid: pid_t = 0
        let exe = try #require(FileOps.readLink("/proc/self/exe"))
        let arguments = [exe, "--testing-library", "swift-testing", "--filter", "grantWriterChild"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment = [
            "\(Self.childVariable)=\(catalogPath)|\(progressPath)|\(durability == .powerLoss ? "full" : "normal")"
        ]
        var index = 0
        while let entry = environ[index] {
            environment.append(String(cString: entry))
            index += 1
        }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        #expect(posix_spawn(&pid, exe, nil, nil, argv, envp) == 0)

        // Wait until the child reported enough returned writes, then kill it mid-stream.
        var reported = 0
        let deadline = Indexer.monotonicSeconds() + 60
        while reported < 150 && Indexer.monotonicSeconds() < deadline {
            usleep(10_000)
            reported = Self.lastReported(progressPath)
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { throw TestFailure("the writer exited early with status \(status)") }
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(status & 0x7F == SIGKILL)
        let lastReturned = Self.lastReported(progressPath)
        #expect(lastReturned >= 150)

        let grants = try Catalog.open(at: catalogPath).grants(for: "editor")
        print("kill -9 (\(durability)): \(lastReturned) writes had returned, \(grants.count) grants in the catalog")
        #expect(grants.count >= lastReturned)
        #expect(grants.map(\.asset) == (0..<grants.count).map(Self.grantedID))
    }

    /// Reads the last complete number the child wrote (one per line, after each write).
    static func lastReported(_ path: String) -> Int {
        guard let bytes = FileOps.read(Array(path.utf8)) else { return 0 }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        guard bytes.last == 0x0A, let last = lines.last else { return lines.dropLast().last.flatMap { Int($0) } ?? 0 }
        return Int(last) ?? 0
    }

    /// Not a test of its own: the writer the test above starts and kills. Without the
    /// environment variable it returns at once.
    @Test func grantWriterChild() throws {
        guard let value = getenv(Self.childVariable) else { return }
        let parts = String(cString: value).split(separator: "|").map(String.init)
        guard parts.count == 3 else { return }
        let catalog = try Catalog.open(at: parts[0], accessDurability: parts[2] == "full" ? .powerLoss : .processCrash)
        let progress = FileOps.cString(Array(parts[1].utf8)) { open($0, O_WRONLY | O_APPEND | O_CLOEXEC) }
        let app = App(name: "editor")
        var grants: [Grant] = []
        for n in 0..<1_000_000 {
            grants.append(Grant(asset: Self.grantedID(n), grantedAtNanoseconds: Int64(n)))
            try catalog.replaceAccessState(apps: ["editor": app], grants: ["editor": grants])
            let line = Array("\(n + 1)\n".utf8)
            _ = line.withUnsafeBytes { write(progress, $0.baseAddress, $0.count) }
        }
    }
}
