import Glibc
import Testing

/// `.picker`: what a write does, how it is refused, what a read shows.
extension ViewBehaviour {
    /// A write naming an app or an asset that does not exist is ENOENT, a line that does not
    /// parse EINVAL, an app added twice EEXIST.
    public static func pickerRefusals(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("select nosuchapp \(asset.id)\n") == ENOENT)
        #expect(client.writePicker("frobnicate everything\n") == EINVAL)
        #expect(client.writePicker("app add twice\n") == 0)
        #expect(client.writePicker("app add twice\n") == EEXIST)
        #expect(client.writePicker("select twice 0123456789ab\n") == ENOENT)
        #expect(try client.list("apps/twice").get().isEmpty)
    }

    /// A refused write changes nothing, not even its lines before the one refused.
    public static func aRefusedPickerWriteChangesNothing(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("app add atomic --location keep\nselect atomic \(asset.id)\nselect nosuchapp \(asset.id)\n") == ENOENT)
        #expect(client.stat("apps/atomic").errnoCode == ENOENT)
        #expect(!String(decoding: try client.read(".picker").get(), as: UTF8.self).contains("atomic"))
    }

    /// `.picker` reads back the apps and their selections; its size is what a read returns.
    public static func pickerReadShowsTheApps(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("app add shown --location keep\nselect shown \(asset.id)\n") == 0)
        let text = try client.read(".picker").get()
        #expect(String(decoding: text, as: UTF8.self).contains("app add shown"))
        #expect(String(decoding: text, as: UTF8.self).contains(asset.id))
        #expect(try client.stat(".picker").get() == Int64(text.count))
    }

    /// A descriptor of `.picker` reads the rendering it was opened on; a fresh open reads
    /// the new one.
    public static func anOpenPickerKeepsItsRendering(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        #expect(client.writePicker("app add before\n") == 0)
        let handle = try client.open(".picker").get()
        defer { client.close(handle: handle) }
        #expect(client.writePicker("app add after\n") == 0)
        let old = String(decoding: try client.read(handle: handle).get(), as: UTF8.self)
        #expect(old.contains("app add before") && !old.contains("app add after"))
        #expect(String(decoding: try client.read(".picker").get(), as: UTF8.self).contains("app add after"))
    }

    /// A write the kernel may have split into several requests (one that fills `max_write`)
    /// is refused whole with EFBIG, and nothing of it runs.
    public static func aSplitWriteIsEFBIG(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        var text = "app add big\n"
        text += String(repeating: "\n", count: (1 << 20) - text.utf8.count)
        #expect(client.writePicker(text) == EFBIG)
        #expect(client.stat("apps/big").errnoCode == ENOENT)
        #expect(client.writePicker("app add big\n") == 0)
    }

    /// An app removed is gone: its folder answers ENOENT and `apps/` no longer lists it.
    public static func aRemovedAppIsGone(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("app add gone --location keep\nselect gone \(asset.id)\n") == 0)
        let handle = try client.open("apps/gone/" + asset.basename).get()
        defer { client.close(handle: handle) }
        #expect(client.writePicker("app remove gone\n") == 0)
        #expect(client.stat("apps/gone").errnoCode == ENOENT)
        #expect(try !client.list("apps").get().contains("gone"))
        #expect(client.read(handle: handle).errnoCode == EACCES)
    }
}

/// Everything but `.picker` and the request files is read-only.
extension ViewBehaviour {
    /// Creating, removing, renaming, truncating or changing the mode of anything in a view
    /// is EROFS; so is writing to a photo opened for writing.
    public static func changesAreEROFS(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("app add frozen --location keep\nselect frozen \(asset.id)\n") == 0)
        let photo = "apps/frozen/" + asset.basename
        let changes: [ClientChange] = [
            .create("apps/frozen/new.jpg"), .create("library/new.jpg"), .mkdir("apps/frozen/folder"), .mkdir("folder"),
            .unlink(photo), .unlink("library/folders/" + asset.path), .rmdir("apps/frozen"), .rename(photo, to: "apps/frozen/renamed.jpg"),
            .truncate(photo, size: 0), .truncate(photo, size: 10), .chmod(photo, mode: 0o644), .symlink("apps/frozen/link", target: photo),
        ]
        for change in changes {
            #expect(client.change(change) == EROFS, "\(change)")
        }
        #expect(client.write(photo, Array("x".utf8), truncate: false) == EROFS)
        #expect(try client.read(photo).get() == library.original(asset))
        #expect(client.change(.unlink("apps/frozen/nothing.jpg")) == ENOENT)
    }

    /// `access(2)` tells the truth: a photo and a folder are readable, not writable (EROFS);
    /// `.picker` is writable for the owner; a missing name is ENOENT.
    public static func accessTellsTheTruth(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("app add checked --location keep\nselect checked \(asset.id)\n") == 0)
        let photo = "apps/checked/" + asset.basename
        #expect(client.access(photo, write: false) == 0)
        #expect(client.access(photo, write: true) == EROFS)
        #expect(client.access("apps/checked", write: true) == EROFS)
        #expect(client.access(".picker", write: true) == 0)
        #expect(client.access("apps/checked/nothing.jpg", write: false) == ENOENT)
    }
}
