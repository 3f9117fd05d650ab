import Foundation
import Glibc
import Testing

/// A file manager window left open on an app's view while its selection changes. FUSE
/// cannot raise inotify events for changes the daemon makes, so what a window can notice
/// is the directory's own attributes: its mtime and ctime move when the listing changes,
/// and a fresh listing (what a window's reload or its poll reads) shows the change at once.
@Suite("stale file-manager windows", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct StaleWindowTests {
    static func times(_ path: String) -> (mtime: timespec, ctime: timespec)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (status.st_mtim, status.st_ctim)
    }

    static func later(_ a: timespec, than b: timespec) -> Bool { (a.tv_sec, a.tv_nsec) > (b.tv_sec, b.tv_nsec) }

    @Test
    func selectAndDeselectMoveTheViewsTimesAndAFreshListingShowsThem() throws {
        let library = try IntegrationLibrary(prefix: "photofs-stale")
        defer { library.remove() }
        let names = try library.grant("editor", [0])
        let daemon = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        let view = library.mountpoint + "/apps/editor"
        // The window: it listed the view and looked at its attributes.
        #expect(IntegrationLibrary.names(view) == names)
        let before = try #require(Self.times(view))
        usleep(20_000)
        #expect(PickerFile.write(library.mountpoint, "select editor \(library.assets[2].id)\n").succeeded)
        let afterSelect = try #require(Self.times(view))
        #expect(Self.later(afterSelect.mtime, than: before.mtime), "a window polling the view's mtime sees the select")
        #expect(Self.later(afterSelect.ctime, than: before.ctime))
        let added = String(library.assets[2].path.split(separator: "/").last ?? "")
        #expect(IntegrationLibrary.names(view).contains(added), "the next listing has the new file, without a remount")
        usleep(20_000)
        #expect(PickerFile.write(library.mountpoint, "deselect editor \(library.assets[0].id)\n").succeeded)
        let afterDeselect = try #require(Self.times(view))
        #expect(Self.later(afterDeselect.mtime, than: afterSelect.mtime), "and the deselect")
        #expect(!IntegrationLibrary.names(view).contains(names[0]))
        // An unchanged view keeps its times: a poll does not reload for nothing.
        let other = library.mountpoint + "/apps"
        let appsBefore = try #require(Self.times(other))
        #expect(PickerFile.write(library.mountpoint, "select editor \(library.assets[2].id)\n").succeeded)
        let unchanged = try #require(Self.times(view)).mtime
        #expect(!Self.later(unchanged, than: afterDeselect.mtime), "selecting an asset already selected changes nothing")
        #expect(!Self.later(try #require(Self.times(other)).mtime, than: appsBefore.mtime), "nor the listing of apps/")
    }
}
