import Glibc
import Testing

/// Lookups, attributes, listings and reads: what a name resolves to and what it serves.
extension ViewBehaviour {
    /// Names that are nowhere answer ENOENT, in every kind of directory; a name below a
    /// file answers ENOTDIR.
    public static func missingNamesAreENOENT(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("app add missing --location keep\nselect missing \(asset.id)\n") == 0)
        for path in ["nothing", "library/nothing", "apps/missing/nothing", "apps/nothing", "library/folders/" + asset.path + ".jpg"] {
            #expect(client.stat(path).errnoCode == ENOENT, "\(path)")
            #expect(client.read(path).errnoCode == ENOENT, "\(path)")
        }
        #expect(client.list("apps/nothing").errnoCode == ENOENT)
        #expect(client.stat("apps/missing/" + asset.basename + "/below").errnoCode == ENOTDIR)
    }

    /// The root lists the library and the apps; the request files are found by name only.
    public static func rootListsItsFolders(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        #expect(client.writePicker("app add listed --location keep\n") == 0)
        let root = try client.list("").get()
        #expect(root.contains("library") && root.contains("apps"), "\(root)")
        #expect(!root.contains(".requests"))
        #expect(try client.list("apps").get().contains("listed"))
        #expect(try !client.list("apps/listed").get().contains(".request"))
    }

    /// Modes restate the access model: the root and `apps/` 0555, `library/` and an app's
    /// folder 0500, a photo 0444 with its original's size, `.picker` 0600.
    public static func attributesRestateTheAccessModel(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("app add modes --location keep\nselect modes \(asset.id)\n") == 0)
        for (path, permissions) in [("", 0o555), ("apps", 0o555), ("library", 0o500), ("apps/modes", 0o500)] {
            let status = try client.status(path).get()
            #expect(status.isDirectory && status.permissions == UInt32(permissions), "\(path): \(status)")
        }
        let file = try client.status("apps/modes/" + asset.basename).get()
        #expect(!file.isDirectory && file.permissions == 0o444 && file.size == Int64(library.original(asset).count))
        let picker = try client.status(".picker").get()
        #expect(!picker.isDirectory && picker.permissions == 0o600)
        #expect(picker.size == Int64(try client.read(".picker").get().count))
    }

    /// Reads at odd offsets return exactly those bytes; at and past the end, nothing.
    public static func readsAtOddOffsetsAndPastTheEnd(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        let original = library.original(asset)
        try #require(original.count > 100)
        let path = "apps/offsets/" + asset.basename
        #expect(client.writePicker("app add offsets --location keep\nselect offsets \(asset.id)\n") == 0)
        let middle = try client.read(path, at: 7, size: 13).get() == Array(original[7..<20])
        #expect(middle, "13 bytes at offset 7 are not the original's")
        let tail = try client.read(path, at: original.count - 3, size: 100).get() == Array(original[(original.count - 3)...])
        #expect(tail, "a read across the end is not the original's last bytes")
        #expect(try client.read(path, at: original.count, size: 10).get().isEmpty)
        #expect(try client.read(path, at: original.count + 4096, size: 10).get().isEmpty)
    }

    /// A view of many files lists each exactly once, in selection order, across pages.
    public static func listingsPageInOrder(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let named = library.uniquelyNamed
        try #require(named.count >= 5)
        let order = Array(named.reversed())
        #expect(client.writePicker("app add paged --location keep\nselect paged \(order.map(\.id).joined(separator: " "))\n") == 0)
        #expect(try client.list("apps/paged").get() == order.map(\.basename))
    }

    /// The library view serves every file's original bytes under its library path, spaces
    /// in folder and file names included.
    public static func libraryViewServesOriginals(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let spaced = library.assets.filter { $0.path.contains(" ") }
        try #require(!spaced.isEmpty, "the sample library has no name with a space")
        for asset in spaced.prefix(3) + library.uniquelyNamed.prefix(2) {
            let same = try client.read("library/folders/" + asset.path).get() == library.original(asset)
            #expect(same, "library/\(asset.path) is not the original")
            #expect(try client.stat("library/folders/" + asset.path).get() == Int64(library.original(asset).count))
        }
    }

    /// An app view shows a file named with a space by that name, and two files with the
    /// same basename under two names, each serving its own bytes.
    public static func spacedAndCollidingNames(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let byName = Dictionary(grouping: library.assets, by: \.basename)
        let pair = try #require(byName.values.first { $0.count >= 2 }, "the sample library has no colliding basenames")
        let spaced = try #require(library.assets.first { $0.basename.contains(" ") && byName[$0.basename]?.count == 1 })
        let ids = [pair[0].id, pair[1].id, spaced.id].joined(separator: " ")
        #expect(client.writePicker("app add names --location keep\nselect names \(ids)\n") == 0)
        let names = try client.list("apps/names").get()
        #expect(names.count == 3 && Set(names).count == 3, "\(names)")
        #expect(names.contains(spaced.basename))
        let originals = Set([pair[0], pair[1]].map { library.original($0) })
        for name in names where name != spaced.basename {
            let bytes = try client.read("apps/names/" + name).get()
            #expect(originals.contains(bytes), "apps/names/\(name) serves neither original")
        }
        let same = try client.read("apps/names/" + spaced.basename).get() == library.original(spaced)
        #expect(same)
    }

    /// Reading a directory is EISDIR, listing a file ENOTDIR.
    public static func directoriesAndFilesKeepTheirKinds(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("app add kinds --location keep\nselect kinds \(asset.id)\n") == 0)
        #expect(client.read("apps/kinds").errnoCode == EISDIR)
        #expect(client.list("apps/kinds/" + asset.basename).errnoCode == ENOTDIR)
    }
}
