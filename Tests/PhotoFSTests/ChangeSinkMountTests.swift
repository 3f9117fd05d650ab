import DaemonCore
import Foundation
import FuseKit
import Glibc
import MediaFormats
import PhotoCatalog
import PhotoCore
import Synchronization
import Testing

/// The daemon's chain in the test process: a catalog-backed `LibraryState` that publishes
/// to the queue of changes the kernel drains (`ChangeQueue`), its `PickerControl` behind `.picker`, and the file
/// system draining the same queue, mounted through the kernel.
@Suite("one change sink through a mount", .serialized, .enabled(if: FuseAvailability.available))
struct ChangeSinkMountTests {
    /// Counts the state's publications and hands each on to the kernel's sink.
    final class CountingSink: ChangeSink {
        let kernel: ChangeQueue
        private let published = Atomic<Int>(0)

        init(kernel: ChangeQueue) { self.kernel = kernel }

        var count: Int { published.load(ordering: .sequentiallyConsistent) }

        func begin(_ kind: StateChange.Kind) { kernel.begin(kind) }

        func end(_ kind: StateChange.Kind, forgetting forget: ViewTreeChanges?) {
            if forget != nil { published.add(1, ordering: .sequentiallyConsistent) }
            kernel.end(kind, forgetting: forget)
        }
    }

    /// Writes `text` to `.picker` through the kernel as one `write(2)`.
    static func write(_ text: String, to picker: [UInt8]) -> Int32 {
        let fd = picker.cPath { open($0, O_WRONLY) }
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) } == bytes.count ? 0 : errno
    }

    @Test func aPickerWriteThroughTheKernelIsPublishedOnceByTheCore() throws {
        let library = TestLibrary()
        let a = try library.add(Array("a.jpg".utf8), [1, 2, 3])
        let b = try library.add(Array("b.jpg".utf8), [4, 5, 6])
        let folder = temporaryDirectory("photofs-sink")
        defer { _ = run(["/bin/rm", "-rf", folder]) }
        let catalog = try Catalog.open(at: folder + "/catalog.sqlite")
        let plans = RedactionPlans(strip: .identity, coarse: .identity)
        try catalog.upsert(
            [a, b].map { AssetRecord(asset: $0, fingerprint: String(repeating: "0", count: 64), indexedAtNanoseconds: 1, redaction: plans) }
        )

        let kernel = ChangeQueue(log: { _ in })
        let sink = CountingSink(kernel: kernel)
        let state = LibraryState(serving: catalog, filters: FilterLanguageResolver(), sink: sink)
        try state.load()
        #expect(sink.count == 1)
        let mountpoint = temporaryDirectory("photofs-mnt")
        var configuration = FileSystemConfiguration(
            libraryPath: library.root, ownerUID: getuid(), ownerGID: getgid(),
            log: { FileHandle.standardError.write(("photofs (test): " + $0 + "\n").data(using: .utf8)!) })
        configuration.maxThreads = 4
        let fileSystem = try PhotoFileSystem(
            configuration: configuration, views: state, plans: state.plans,
            control: PickerControl(state: state, mountpoint: Array(mountpoint.utf8), log: .discarding), sink: kernel)
        let mount = try FuseMount(fileSystem: fileSystem, mountpoint: mountpoint, options: ["fsname=photofs-test", "subtype=photofs"])
        let ended = DispatchSemaphore(value: 0)
        Thread { [mount] in
            _ = try? mount.run()
            ended.signal()
        }.start()
        defer {
            _ = "fusermount3 -u '\(mountpoint)'".withCString { system($0) }
            if ended.wait(timeout: .now() + 10) == .timedOut { _ = "umount -l '\(mountpoint)'".withCString { system($0) } }
            mount.close()
            rmdir(mountpoint)
        }
        let root = Array(mountpoint.utf8)
        let picker = root + "/.picker"

        #expect(Self.write("app add e --location keep\nselect e \(a.id) \(b.id)\n", to: picker) == 0)
        #expect(sink.count == 2)
        // The kernel has now looked up the app's folder and both names.
        #expect(try ByteFiles.list(root + "/apps/e").count == 2)
        #expect(try ByteFiles.stat(root + "/apps/e/b.jpg").st_size == 3)

        // The deselect is published once, by the state (the file system's `forget` adds
        // nothing), and the revoked name is gone when the write returns.
        #expect(Self.write("deselect e \(b.id)\n", to: picker) == 0)
        #expect(sink.count == 3)
        #expect(ByteFiles.errnoOf { (root + "/apps/e/b.jpg").cPath { access($0, F_OK) } } == ENOENT)
        #expect(try ByteFiles.list(root + "/apps/e") == [Array("a.jpg".utf8)])

        // A refused write and one that changes nothing publish nothing.
        #expect(Self.write("select nobody \(a.id)\n", to: picker) == ENOENT)
        #expect(Self.write("select e \(a.id)\n", to: picker) == 0)
        #expect(sink.count == 3)
    }
}
