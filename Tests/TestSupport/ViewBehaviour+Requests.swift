import Glibc
import Testing

/// The request files: `apps/APP/.request` where an app asks, `.requests` where the owner
/// answers. A read that would wait is made non-blocking (EAGAIN) unless a scenario waits
/// for an answer (`readAnswered`).
extension ViewBehaviour {
    /// The request files are found by name, never listed, and exist only where they belong.
    public static func requestFilesAreFoundNotListed(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        #expect(client.writePicker("app add finder\n") == 0)
        #expect(try client.stat("apps/finder/.request").get() == 0)
        #expect(try client.status("apps/finder/.request").get().permissions == 0o600)
        #expect(try client.stat(".requests").get() == 0)
        #expect(try !client.list("apps/finder").get().contains(".request"))
        #expect(try !client.list("").get().contains(".requests"))
        for path in ["library/.request", "apps/.request", ".request", "apps/finder/.requests", "apps/nobody/.request"] {
            #expect(client.stat(path).errnoCode == ENOENT, "\(path)")
        }
    }

    /// A request is recorded and listed in `.requests`; while it is pending a second one is
    /// EBUSY and a read would wait (EAGAIN); the owner cancels it through `.requests`, and
    /// the app reads the answer.
    public static func aRequestIsListedAndAnswered(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        #expect(client.writePicker("app add asker\n") == 0)
        let request = try Self.ask(client, app: "asker", "media=image limit=1")
        defer { client.close(handle: request.handle) }
        #expect(request.listing.contains("app=asker limit=1"), "\(request.listing)")
        #expect(client.readNow("apps/asker/.request").errnoCode == EAGAIN)
        #expect(client.write("apps/asker/.request", Array("limit=2".utf8), truncate: true) == EBUSY)
        #expect(client.write(".requests", Array("cancel asker \(request.id)\n".utf8), truncate: true) == 0)
        #expect(try client.read(".requests").get().isEmpty)
        #expect(try client.read("apps/asker/.request").get() == Array("cancelled\n".utf8))
        #expect(try client.stat("apps/asker/.request").get() == Int64("cancelled\n".utf8.count))
    }

    /// A malformed request is EINVAL and reads back why; one with no room left under the
    /// app's limit is EDQUOT; an answer naming what the app does not see is ENOENT, and a
    /// line `.requests` does not know EINVAL.
    public static func requestRefusals(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(
            client.writePicker("app add refused --location keep\napp add full --location keep --limit 1\nselect full \(asset.id)\n") == 0)
        #expect(client.write("apps/refused/.request", Array("limit=x".utf8), truncate: true) == EINVAL)
        #expect(String(decoding: try client.read("apps/refused/.request").get(), as: UTF8.self).hasPrefix("refused: "))
        #expect(client.write("apps/full/.request", Array("limit=1".utf8), truncate: true) == EDQUOT)
        #expect(client.write(".requests", Array("bogus line here\n".utf8), truncate: true) == EINVAL)
        let request = try Self.ask(client, app: "refused", "limit=1")
        defer { client.close(handle: request.handle) }
        #expect(client.write(".requests", Array("answer refused \(request.id) \(asset.id)\n".utf8), truncate: true) == ENOENT)
        #expect(client.write(".requests", Array("cancel refused \(request.id)\n".utf8), truncate: true) == 0)
    }

    /// A request grants nothing: the app's view stays as it was until the owner grants
    /// through `.picker`.
    public static func aRequestGrantsNothing(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        #expect(client.writePicker("app add hopeful --location keep\n") == 0)
        let request = try Self.ask(client, app: "hopeful", "media=image")
        defer { client.close(handle: request.handle) }
        #expect(try client.list("apps/hopeful").get().isEmpty)
        #expect(client.write(".requests", Array("cancel hopeful \(request.id)\n".utf8), truncate: true) == 0)
    }

    /// A read of a pending request waits until the owner answers, then returns the answer.
    public static func aWaitingReadGetsTheAnswer(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        #expect(client.writePicker("app add waiter --location keep\n") == 0)
        let request = try Self.ask(client, app: "waiter", "limit=1")
        defer { client.close(handle: request.handle) }
        let read = client.readAnswered("apps/waiter/.request") {
            #expect(client.writePicker("select waiter \(asset.id)\n") == 0)
            #expect(client.write(".requests", Array("answer waiter \(request.id) \(asset.id)\n".utf8), truncate: true) == 0)
        }
        #expect(try read.get() == Array("selected 1\n\(asset.basename)\n".utf8))
    }
}

extension ViewBehaviour {
    /// A request made and pending: the app's request file, held open (the caller closes it),
    /// the request's id and the `.requests` listing that showed it.
    struct PendingRequest {
        let handle: Int
        let id: Int
        let listing: String
    }

    /// Opens `app`'s request file and keeps it open (a request nobody has open is withdrawn,
    /// through the kernel), writes `request` to it, and reads the pending request's id from
    /// `.requests`.
    static func ask(
        _ client: ViewClient, app: String, _ request: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> PendingRequest {
        let path = "apps/\(app)/.request"
        let handle = try client.open(path).get()
        do {
            #expect(client.write(path, Array(request.utf8), truncate: true) == 0, sourceLocation: sourceLocation)
            let listing = String(decoding: try client.read(".requests").get(), as: UTF8.self)
            let id = listing.split(separator: " ").first { $0.hasPrefix("id=") }.flatMap { Int($0.dropFirst(3)) }
            return PendingRequest(handle: handle, id: try #require(id, sourceLocation: sourceLocation), listing: listing)
        } catch {
            client.close(handle: handle)
            throw error
        }
    }
}
