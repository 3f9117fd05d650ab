import Foundation
import FuseKit
import Glibc
import PhotoCore

/// A `PhotoFileSystem` mounted inside the test process on a temporary mountpoint, its loop
/// on its own thread: the in-process half of "one behaviour suite, two targets" (the other
/// half starts the built binary). Always unmount with `finish()`.
final class InProcessMount: @unchecked Sendable {
    let mountpoint: [UInt8]
    let fileSystem: PhotoFileSystem
    /// What the mount serves (the control's views when it is a `MemoryPicker`).
    let views: MemoryViews
    private let mount: FuseMount
    private let ended = DispatchSemaphore(value: 0)
    private var finished = false

    init(
        library: TestLibrary, snapshot: LibrarySnapshot, control: (any ControlHandling)? = nil,
        filters: some AppFilterResolving = FilterLanguageResolver(), allowOther: Bool = false,
        configurationKnows: Bool = true
    ) throws {
        mountpoint = Array(temporaryDirectory("photofs-mnt").utf8)
        var configuration = FileSystemConfiguration(
            libraryPath: library.root, ownerUID: getuid(), ownerGID: getgid(),
            log: { FileHandle.standardError.write(("photofs (test): " + $0 + "\n").data(using: .utf8)!) })
        configuration.maxThreads = 8
        // `configurationKnows` false: only the mount options say that others may enter.
        configuration.othersMayEnter = allowOther && configurationKnows
        views = (control as? MemoryPicker)?.views ?? MemoryViews(snapshot, filters: filters)
        fileSystem = try PhotoFileSystem(configuration: configuration, views: views, plans: library.plans, control: control)
        mount = try FuseMount(
            fileSystem: fileSystem, mountpoint: String(decoding: mountpoint, as: UTF8.self),
            options: ["fsname=photofs-test", "subtype=photofs"] + (allowOther ? ["allow_other", "default_permissions"] : []))
        let thread = Thread { [mount, ended] in
            _ = try? mount.run()
            ended.signal()
        }
        thread.start()
    }

    /// Shows `snapshot` and has the kernel forget what changed, as the daemon does.
    @discardableResult
    func install(_ snapshot: LibrarySnapshot) -> ViewTreeChanges {
        let changes = views.install(snapshot)
        fileSystem.forget(changes)
        return changes
    }

    /// A path inside the mount.
    func path(_ relative: String) -> [UInt8] { mountpoint + "/" + relative }

    func path(_ relative: [UInt8]) -> [UInt8] { mountpoint + [UInt8(ascii: "/")] + relative }

    /// Unmounts, waits for the loop to end and removes the mountpoint.
    func finish() {
        guard !finished else { return }
        finished = true
        _ = "fusermount3 -u '\(String(decoding: mountpoint, as: UTF8.self))'".withCString { system($0) }
        if ended.wait(timeout: .now() + 10) == .timedOut {
            _ = "umount -l '\(String(decoding: mountpoint, as: UTF8.self))'".withCString { system($0) }
        }
        mount.close()
        _ = mountpoint.cPath { rmdir($0) }
    }

    deinit { finish() }
}
