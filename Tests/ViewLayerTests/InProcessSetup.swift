import DaemonCore
import FuseKit
import Glibc
import PhotoCatalog
import PhotoCore

/// The daemon's pieces over a catalogued library, with no mount: the live state loaded from
/// the catalog and a descriptor of the library folder (closed when the setup goes), from
/// which `layer` builds view layers as the daemon does.
final class InProcessSetup {
    let state: LibraryState
    private let libraryFD: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(catalog: String, library: String) throws {
        state = LibraryState(serving: try Catalog.open(at: catalog), filters: FilterLanguageResolver())
        try state.load()
        libraryFD = Glibc.open(library, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard libraryFD >= 0 else { throw Failure(description: "cannot open the library folder \(library): errno \(errno)") }
    }

    deinit { close(libraryFD) }

    /// A view layer over the state, with the picker control file.
    func layer(
        log: @escaping @Sendable (String) -> Void = { _ in }, representations: (any RepresentationProviding)? = nil
    ) -> ViewLayer {
        ViewLayer(
            source: state, ownerUID: getuid(), reader: LibraryFileReader(libraryFD: libraryFD), plans: state.plans,
            control: LibraryControl(state: state), log: log, representations: representations)
    }
}
