import Foundation
import Glibc
import PhotoMetadata
import TestSupport
import Testing

/// The behaviour suite (`ViewBehaviour`) through a real kernel mount of the shipped binary
/// (`photofs mount`), the same cases the in-process target runs against the view layer.
@Suite("behaviour: kernel mount", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct KernelBehaviourTests {
    /// Runs `body` with a client on a fresh mount of a freshly generated and catalogued
    /// library; always unmounts and expects a clean exit.
    static func withClient(_ body: (KernelClient, BehaviourLibrary) throws -> Void) throws {
        let library = try BehaviourLibrary(root: testRoot)
        defer { library.remove() }
        let mountpoint = library.base + "/mnt"
        mkdir(mountpoint, 0o755)
        let daemon = try DaemonProcess(library: library.library, mountpoint: mountpoint, catalog: library.catalog)
        defer { #expect(daemon.unmount() == 0) }
        try body(KernelClient(mountpoint: mountpoint), library)
    }

    @Test func stripViewHasNoLocation() throws {
        try Self.withClient { try ViewBehaviour.stripViewHasNoLocation($0, $1, hasLocation: Self.hasLocation) }
    }

    @Test func notGrantedIsNotThere() throws {
        try Self.withClient { try ViewBehaviour.notGrantedIsNotThere($0, $1) }
    }

    @Test func revocationDropsAnOpenDescriptor() throws {
        try Self.withClient { try ViewBehaviour.revocationDropsAnOpenDescriptor($0, $1) }
    }

    @Test func pickerWriteSelectsInOrder() throws {
        try Self.withClient { try ViewBehaviour.pickerWriteSelectsInOrder($0, $1) }
    }

    @Test func limitIsEDQUOT() throws {
        try Self.withClient { try ViewBehaviour.limitIsEDQUOT($0, $1) }
    }

    @Test func missingNamesAreENOENT() throws {
        try Self.withClient { try ViewBehaviour.missingNamesAreENOENT($0, $1) }
    }

    @Test func rootListsItsFolders() throws {
        try Self.withClient { try ViewBehaviour.rootListsItsFolders($0, $1) }
    }

    @Test func attributesRestateTheAccessModel() throws {
        try Self.withClient { try ViewBehaviour.attributesRestateTheAccessModel($0, $1) }
    }

    @Test func readsAtOddOffsetsAndPastTheEnd() throws {
        try Self.withClient { try ViewBehaviour.readsAtOddOffsetsAndPastTheEnd($0, $1) }
    }

    @Test func listingsPageInOrder() throws {
        try Self.withClient { try ViewBehaviour.listingsPageInOrder($0, $1) }
    }

    @Test func libraryViewServesOriginals() throws {
        try Self.withClient { try ViewBehaviour.libraryViewServesOriginals($0, $1) }
    }

    @Test func spacedAndCollidingNames() throws {
        try Self.withClient { try ViewBehaviour.spacedAndCollidingNames($0, $1) }
    }

    @Test func directoriesAndFilesKeepTheirKinds() throws {
        try Self.withClient { try ViewBehaviour.directoriesAndFilesKeepTheirKinds($0, $1) }
    }

    @Test func pickerRefusals() throws {
        try Self.withClient { try ViewBehaviour.pickerRefusals($0, $1) }
    }

    @Test func aRefusedPickerWriteChangesNothing() throws {
        try Self.withClient { try ViewBehaviour.aRefusedPickerWriteChangesNothing($0, $1) }
    }

    @Test func pickerReadShowsTheApps() throws {
        try Self.withClient { try ViewBehaviour.pickerReadShowsTheApps($0, $1) }
    }

    @Test func anOpenPickerKeepsItsRendering() throws {
        try Self.withClient { try ViewBehaviour.anOpenPickerKeepsItsRendering($0, $1) }
    }

    @Test func aSplitWriteIsEFBIG() throws {
        try Self.withClient { try ViewBehaviour.aSplitWriteIsEFBIG($0, $1) }
    }

    @Test func aRemovedAppIsGone() throws {
        try Self.withClient { try ViewBehaviour.aRemovedAppIsGone($0, $1) }
    }

    @Test func changesAreEROFS() throws {
        try Self.withClient { try ViewBehaviour.changesAreEROFS($0, $1) }
    }

    @Test func accessTellsTheTruth() throws {
        try Self.withClient { try ViewBehaviour.accessTellsTheTruth($0, $1) }
    }

    @Test func requestFilesAreFoundNotListed() throws {
        try Self.withClient { try ViewBehaviour.requestFilesAreFoundNotListed($0, $1) }
    }

    @Test func aRequestIsListedAndAnswered() throws {
        try Self.withClient { try ViewBehaviour.aRequestIsListedAndAnswered($0, $1) }
    }

    @Test func requestRefusals() throws {
        try Self.withClient { try ViewBehaviour.requestRefusals($0, $1) }
    }

    @Test func aRequestGrantsNothing() throws {
        try Self.withClient { try ViewBehaviour.aRequestGrantsNothing($0, $1) }
    }

    @Test func selectingOutsideTheFilterIsEPERM() throws {
        try Self.withClient { try ViewBehaviour.selectingOutsideTheFilterIsEPERM($0, $1) }
    }

    @Test func libraryFoldersListTheirFiles() throws {
        try Self.withClient { try ViewBehaviour.libraryFoldersListTheirFiles($0, $1) }
    }

    @Test func pickerReadsAtOffsets() throws {
        try Self.withClient { try ViewBehaviour.pickerReadsAtOffsets($0, $1) }
    }

    @Test func anAnswerNamesWhatTheAppNowSees() throws {
        try Self.withClient { try ViewBehaviour.anAnswerNamesWhatTheAppNowSees($0, $1) }
    }

    @Test func appsSeeOnlyTheirOwn() throws {
        try Self.withClient { try ViewBehaviour.appsSeeOnlyTheirOwn($0, $1) }
    }

    @Test func aWaitingReadGetsTheAnswer() throws {
        try Self.withClient { try ViewBehaviour.aWaitingReadGetsTheAnswer($0, $1) }
    }

    /// Whether a file holds a location, as the indexer reads it (libexif and the location model).
    static func hasLocation(_ bytes: [UInt8]) -> Bool {
        let directory = temporaryDirectory("photofs-location")
        defer { run(["/bin/rm", "-rf", directory]) }
        let path = directory + "/file.jpg"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)),
            let analysis = try? FileAnalyzer().analyze(absolutePath: Array(path.utf8))
        else { return true }
        return analysis.metadata.location != nil || !analysis.metadata.locationSources.isEmpty
    }
}
