import PhotoCore
import Testing

/// A request narrows the app's filter and limit, never widens them.
@Suite("Pick request narrowing")
struct PickScopeTests {
    let image = SampleAssets.asset("A", "a.jpg", .jpeg, size: 100)
    let video = SampleAssets.asset("B", "b.mp4", .mp4, size: 100)

    @Test func mediaIsAndedWithTheAppFilter() throws {
        let app = App(name: "editor", filter: "type:video")
        let scope = try PickScope(
            request: PickRequest(media: .kind(.image)), app: app, appFilter: try Filter(app.filter), grantCount: 0)
        #expect(!scope.offers(image))
        #expect(!scope.offers(video))
        let open = try PickScope(
            request: PickRequest(media: .not(.kind(.image))), app: App(name: "all"), appFilter: .everything, grantCount: 0)
        #expect(open.offers(video))
        #expect(!open.offers(image))
    }

    @Test func limitIsTheSmallerOfRequestAndRoom() throws {
        let app = App(name: "editor", selectionLimit: 5)
        func limit(_ request: PickRequest, grants: Int) throws -> Int? {
            try PickScope(request: request, app: app, appFilter: .everything, grantCount: grants).limit
        }
        #expect(try limit(PickRequest(limit: 3), grants: 0) == 3)
        #expect(try limit(PickRequest(limit: 3), grants: 4) == 1)
        #expect(try limit(PickRequest(limit: 0), grants: 2) == 3)
        #expect(try limit(PickRequest(limit: 9, mode: .replace), grants: 5) == 5)
        #expect(throws: PickRequestError.noRoomLeft(limit: 5)) { try limit(PickRequest(limit: 1), grants: 5) }
        let unlimited = try PickScope(request: PickRequest(), app: App(name: "free"), appFilter: .everything, grantCount: 100)
        #expect(unlimited.limit == nil)
    }
}
