import Testing

extension ViewBehaviour {
    /// One shared scenario. Each target runs every one through a single parameterized test
    /// (`@Test(arguments: ViewBehaviour.shared)`), so what both targets run is listed once,
    /// here.
    public struct Scenario: Sendable, CustomTestStringConvertible {
        /// The scenario's function name, shown as the test case.
        public let name: String
        private let body: @Sendable (ViewClient, BehaviourLibrary, ([UInt8]) -> Bool) throws -> Void

        init(_ name: String, _ body: @escaping @Sendable (ViewClient, BehaviourLibrary, ([UInt8]) -> Bool) throws -> Void) {
            self.name = name
            self.body = body
        }

        public var testDescription: String { name }

        /// Runs the scenario; `hasLocation` says whether bytes hold a location as an
        /// independent reader sees them (only the strip-view scenario asks).
        public func run(_ client: ViewClient, _ library: BehaviourLibrary, hasLocation: ([UInt8]) -> Bool) throws {
            try withoutActuallyEscaping(hasLocation) { try body(client, library, $0) }
        }
    }

    /// Every shared scenario, in the order both targets run them.
    public static let shared: [Scenario] = [
        Scenario("stripViewHasNoLocation") { try stripViewHasNoLocation($0, $1, hasLocation: $2) },
        Scenario("notGrantedIsNotThere") { client, library, _ in try notGrantedIsNotThere(client, library) },
        Scenario("revocationDropsAnOpenDescriptor") { client, library, _ in try revocationDropsAnOpenDescriptor(client, library) },
        Scenario("pickerWriteSelectsInOrder") { client, library, _ in try pickerWriteSelectsInOrder(client, library) },
        Scenario("limitIsEDQUOT") { client, library, _ in try limitIsEDQUOT(client, library) },
        Scenario("missingNamesAreENOENT") { client, library, _ in try missingNamesAreENOENT(client, library) },
        Scenario("rootListsItsFolders") { client, library, _ in try rootListsItsFolders(client, library) },
        Scenario("attributesRestateTheAccessModel") { client, library, _ in try attributesRestateTheAccessModel(client, library) },
        Scenario("readsAtOddOffsetsAndPastTheEnd") { client, library, _ in try readsAtOddOffsetsAndPastTheEnd(client, library) },
        Scenario("listingsPageInOrder") { client, library, _ in try listingsPageInOrder(client, library) },
        Scenario("libraryViewServesOriginals") { client, library, _ in try libraryViewServesOriginals(client, library) },
        Scenario("spacedAndCollidingNames") { client, library, _ in try spacedAndCollidingNames(client, library) },
        Scenario("directoriesAndFilesKeepTheirKinds") { client, library, _ in try directoriesAndFilesKeepTheirKinds(client, library) },
        Scenario("pickerRefusals") { client, library, _ in try pickerRefusals(client, library) },
        Scenario("aRefusedPickerWriteChangesNothing") { client, library, _ in try aRefusedPickerWriteChangesNothing(client, library) },
        Scenario("pickerReadShowsTheApps") { client, library, _ in try pickerReadShowsTheApps(client, library) },
        Scenario("anOpenPickerKeepsItsRendering") { client, library, _ in try anOpenPickerKeepsItsRendering(client, library) },
        Scenario("aSplitWriteIsEFBIG") { client, library, _ in try aSplitWriteIsEFBIG(client, library) },
        Scenario("aRemovedAppIsGone") { client, library, _ in try aRemovedAppIsGone(client, library) },
        Scenario("changesAreEROFS") { client, library, _ in try changesAreEROFS(client, library) },
        Scenario("accessTellsTheTruth") { client, library, _ in try accessTellsTheTruth(client, library) },
        Scenario("requestFilesAreFoundNotListed") { client, library, _ in try requestFilesAreFoundNotListed(client, library) },
        Scenario("aRequestIsListedAndAnswered") { client, library, _ in try aRequestIsListedAndAnswered(client, library) },
        Scenario("requestRefusals") { client, library, _ in try requestRefusals(client, library) },
        Scenario("aRequestGrantsNothing") { client, library, _ in try aRequestGrantsNothing(client, library) },
        Scenario("selectingOutsideTheFilterIsEPERM") { client, library, _ in try selectingOutsideTheFilterIsEPERM(client, library) },
        Scenario("libraryFoldersListTheirFiles") { client, library, _ in try libraryFoldersListTheirFiles(client, library) },
        Scenario("pickerReadsAtOffsets") { client, library, _ in try pickerReadsAtOffsets(client, library) },
        Scenario("anAnswerNamesWhatTheAppNowSees") { client, library, _ in try anAnswerNamesWhatTheAppNowSees(client, library) },
        Scenario("appsSeeOnlyTheirOwn") { client, library, _ in try appsSeeOnlyTheirOwn(client, library) },
        Scenario("aWaitingReadGetsTheAnswer") { client, library, _ in try aWaitingReadGetsTheAnswer(client, library) },
    ]
}
