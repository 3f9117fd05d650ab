import Glibc
import Testing

/// Filters, the library's folders, `.picker` read in parts, and an answered request.
extension ViewBehaviour {
    /// Selecting what the app's filter excludes is EPERM and selects nothing.
    public static func selectingOutsideTheFilterIsEPERM(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let located = Set(library.located.map(\.id))
        let outside = try #require(library.uniquelyNamed.first { !located.contains($0.id) }, "every sample photo is located")
        let inside = try #require(library.uniquelyNamed.first { located.contains($0.id) }, "no sample photo is located")
        #expect(client.writePicker("app add filtered --location keep --filter has:location\n") == 0)
        #expect(client.writePicker("select filtered \(outside.id)\n") == EPERM)
        #expect(try client.list("apps/filtered").get().isEmpty)
        #expect(client.writePicker("select filtered \(inside.id)\n") == 0)
        #expect(try client.list("apps/filtered").get() == [inside.basename])
    }

    /// `library/folders` lists the library's folders, and a folder its files.
    public static func libraryFoldersListTheirFiles(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.assets.first { $0.path.contains("/") })
        let top = String(asset.path.split(separator: "/")[0])
        #expect(try client.list("library/folders").get().contains(top))
        let folder = String(asset.path[..<asset.path.lastIndex(of: "/")!])
        let inFolder = Set(
            library.assets.filter { $0.path.hasPrefix(folder + "/") && !$0.path.dropFirst(folder.count + 1).contains("/") }.map(\.basename))
        let listed = try client.list("library/folders/" + folder).get()
        #expect(Set(listed).isSuperset(of: inFolder), "\(folder): \(listed)")
        #expect(Set(listed).count == listed.count)
    }

    /// `.picker` read in parts gives the parts of the whole text.
    public static func pickerReadsAtOffsets(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        #expect(client.writePicker("app add parts --location keep\n") == 0)
        let whole = try client.read(".picker").get()
        try #require(whole.count > 20)
        #expect(try client.read(".picker", at: 5, size: 10).get() == Array(whole[5..<15]))
        #expect(try client.read(".picker", at: whole.count - 2, size: 10).get() == Array(whole[(whole.count - 2)...]))
        #expect(try client.read(".picker", at: whole.count + 1, size: 10).get().isEmpty)
    }

    /// The owner grants through `.picker` and answers through `.requests`: the app reads
    /// the names it now sees.
    public static func anAnswerNamesWhatTheAppNowSees(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("app add answered --location keep\n") == 0)
        let request = try Self.ask(client, app: "answered", "limit=1")
        defer { client.close(handle: request.handle) }
        #expect(client.writePicker("select answered \(asset.id)\n") == 0)
        #expect(client.write(".requests", Array("answer answered \(request.id) \(asset.id)\n".utf8), truncate: true) == 0)
        #expect(try client.read("apps/answered/.request").get() == Array("selected 1\n\(asset.basename)\n".utf8))
        #expect(try client.list("apps/answered").get() == [asset.basename])
    }

    /// Two apps each see their own selection only.
    public static func appsSeeOnlyTheirOwn(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let named = library.uniquelyNamed
        try #require(named.count >= 2)
        #expect(client.writePicker("app add left --location keep\nselect left \(named[0].id)\n") == 0)
        #expect(client.writePicker("app add right --location keep\nselect right \(named[1].id)\n") == 0)
        #expect(try client.list("apps/left").get() == [named[0].basename])
        #expect(try client.list("apps/right").get() == [named[1].basename])
        #expect(client.stat("apps/left/" + named[1].basename).errnoCode == ENOENT)
        #expect(client.read("apps/right/" + named[0].basename).errnoCode == ENOENT)
    }
}
