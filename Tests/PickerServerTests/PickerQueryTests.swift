import Foundation
import MediaFormats
import PhotoCore
import Synchronization
import TestSupport
import Testing

@testable import PickerServer

/// The pickers' one search language, the Folders list and the two-step Add, without a socket.
@Suite("Picker search, folders and confirmations")
struct PickerQueryTests {
    static func asset(_ number: UInt64, _ path: String, make: String? = nil, model: String? = nil, date: CaptureDate, video: Bool = false)
        -> Asset
    {
        Asset(
            id: AssetID(number: number)!, path: LibraryPath(path), size: 1000, mtimeNanoseconds: 0, inode: number,
            metadata: MediaMetadata(format: video ? .mp4 : .jpeg, captureDate: date, make: make, model: model), withheld: [])
    }

    static let assets = [
        asset(1, "Trips/Beach 2023/IMG_0001.jpg", make: "NOKIA", model: "Lumia 930", date: CaptureDate(year: 2023, month: 6, day: 14)),
        asset(2, "Trips/Beach 2023/clip.mp4", date: CaptureDate(year: 2023, month: 6, day: 15), video: true),
        asset(3, "Camera Roll/IMG_0002.jpg", make: "Canon", model: "Canon EOS 40D", date: CaptureDate(year: 2024, month: 1, day: 2)),
        asset(4, "top.jpg", make: "Canon", date: CaptureDate(year: 2022, month: 12, day: 31)),
    ]

    func matching(_ text: String) throws -> [UInt64] {
        let query = try PickerQuery(text)
        return Self.assets.filter { query.matches($0, text: PickerQuery.searchText(of: $0)) }.map { UInt64($0.inode) }
    }

    @Test func plainWordsMatchNamesFoldersCamerasDatesAndMonths() throws {
        #expect(try matching("nokia") == [1])
        #expect(try matching("beach") == [1, 2])
        #expect(try matching("2023") == [1, 2])
        #expect(try matching("june") == [1, 2])
        #expect(try matching("Dec") == [4])
        #expect(try matching("2023-06-15") == [2])
        #expect(try matching("canon 2024") == [3])
        #expect(try matching("video") == [2])
        #expect(try matching("\"camera roll\"") == [3])
        #expect(try matching("canon -roll") == [4])
        #expect(try matching("") == [1, 2, 3, 4])
    }

    @Test func filterTermsStillWorkAndMixWithWords() throws {
        #expect(try matching("type:video") == [2])
        #expect(try matching("beach type:image") == [1])
        #expect(try matching("canon (taken:2024 OR taken:2022)") == [3, 4])
        #expect(try matching("folder:Trips -type:video") == [1])
        #expect(try matching("name:IMG_*") == [1, 3])
    }

    @Test func aWrongTermKeepsItsColumnInTheQueryAsTyped() {
        #expect(throws: FilterError.self) { try PickerQuery("beach taken:20x") }
        do {
            _ = try PickerQuery("beach nokia taken:20x")
        } catch {
            #expect(error.position == 18, "the value of taken: starts at column 19: \(error)")
        }
    }

    @Test func foldersCountTheirSubfoldersWithTheNewestAsCover() {
        let setup = PickerSetup(
            app: App(name: "editor"), requestID: nil, mode: .add, limit: nil, ordered: true, media: "", candidates: Self.assets,
            preselected: [], libraryRoot: "/nowhere")
        let folders = setup.folders()
        #expect(folders.map(\.path) == ["Camera Roll", "Trips", "Trips/Beach 2023"])
        #expect(folders.map(\.count) == [1, 2, 2])
        #expect(folders[1].cover == AssetID(number: 2))
        #expect(PickerSetup.folderTerm("Trips/Beach 2023") == "folder:'Trips/Beach 2023'")
        #expect(PickerSetup.folderTerm("Bob's") == "folder:\"Bob's\"")
    }

    @Test func aConfirmationIsForItsIdsOnceAndNotTooSoon() {
        let now = Mutex(100.0)
        let confirmations = GrantConfirmations { now.withLock { $0 } }
        let ids = [AssetID(number: 1)!, AssetID(number: 2)!]
        #expect(confirmations.redeem(nil, for: ids) == .failure(.missing))
        var value = confirmations.issue(for: ids)
        #expect(confirmations.redeem(value, for: ids) == .failure(.tooSoon))
        #expect(confirmations.redeem(value, for: ids) == .failure(.missing), "a refusal spends it")
        value = confirmations.issue(for: ids)
        now.withLock { $0 += 0.6 }
        #expect(confirmations.redeem(value, for: Array(ids.reversed())) == .failure(.otherPhotos), "the order is part of the grant")
        value = confirmations.issue(for: ids)
        now.withLock { $0 += 0.6 }
        #expect(confirmations.redeem(String(value.reversed()), for: ids) == .failure(.missing))
        value = confirmations.issue(for: ids)
        now.withLock { $0 += 0.6 }
        #expect(confirmations.redeem(value, for: ids) == .success(()))
        #expect(confirmations.redeem(value, for: ids) == .failure(.missing), "used once")
    }

    @Test func theQuestionSaysWhatWillHappen() {
        let preselected = (1...5).map { AssetID(number: UInt64($0))! }
        let replace = PickerSetup(
            app: App(name: "editor"), requestID: nil, mode: .replace, limit: nil, ordered: true, media: "", candidates: Self.assets,
            preselected: preselected, libraryRoot: "/nowhere")
        let none = GrantSummary(setup: replace, ids: [])
        #expect(none.question == "Remove all 5 photos from editor?" && none.button == "Remove all" && none.removes)
        let some = GrantSummary(setup: replace, ids: [preselected[0]])
        #expect(some.question == "Give editor 1 photo?" && some.details.contains("editor will no longer see 4 photos it has now."))
        let add = PickerSetup(
            app: App(name: "editor"), requestID: 1, mode: .add, limit: 3, ordered: true, media: "", candidates: Self.assets,
            preselected: [], libraryRoot: "/nowhere")
        let three = GrantSummary(setup: add, ids: Array(preselected.prefix(3)))
        #expect(three.question == "Add 3 photos to editor?" && !three.removes)
        #expect(three.details.first == "editor receives them with location removed.")
    }
}

extension Result where Success == Void, Failure == GrantConfirmations.Refusal {
    static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.success, .success): true
        case (.failure(let x), .failure(let y)): x == y
        default: false
        }
    }
}

/// A video tile's length, read from the movie's `mvhd` box.
@Suite("Video lengths on tiles")
struct MovieSecondsTests {
    @Test func theLengthOfAMovieAndNothingForOtherFiles() throws {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let movie = GoProFixture.movie(Array(repeating: [0, 0, 0, 0], count: 42))
        let path = directory.appendingPathComponent("clip.mp4").path
        try Data(movie).write(to: URL(fileURLWithPath: path))
        var asset = PickerQueryTests.asset(9, "clip.mp4", date: CaptureDate(year: 2024, month: 5, day: 1), video: true)
        asset.size = Int64(movie.count)
        let seconds = try #require(MovieSeconds.of(asset, path: path))
        #expect(seconds == 42)
        #expect(PickerLabels.json(asset, seconds: seconds).contains(#""duration":"0:42""#))
        #expect(PickerLabels.duration(3725) == "1:02:05")
        #expect(PickerLabels.camera(PickerQueryTests.assets[2]) == "Canon EOS 40D")
        #expect(PickerLabels.camera(PickerQueryTests.assets[0]) == "NOKIA Lumia 930")
        #expect(PickerLabels.camera(PickerQueryTests.assets[3]) == "Canon")
        // A file changed since it was catalogued, a cut file and a photo have no length.
        var changed = asset
        changed.size += 1
        #expect(MovieSeconds.of(changed, path: path) == nil)
        let cut = directory.appendingPathComponent("cut.mp4").path
        try Data(movie.prefix(movie.count - 40)).write(to: URL(fileURLWithPath: cut))
        var cutAsset = asset
        cutAsset.size = Int64(movie.count - 40)
        #expect(MovieSeconds.of(cutAsset, path: cut) == nil)
        var photo = PickerQueryTests.asset(10, "clip.mp4", date: CaptureDate(year: 2024, month: 5, day: 1))
        photo.size = asset.size
        #expect(MovieSeconds.of(photo, path: path) == nil)
    }
}
