import DaemonCore
import Foundation
import PhotoCatalog
import PhotoCore
import SystemKit

/// How a process other than the daemon changes a library's grants and answers its
/// requests: through the daemon when the library is mounted (so it applies the change and
/// invalidates the kernel's caches) — over its picker socket, which answers this call
/// alone, or through `MOUNTPOINT/.picker` when there is no socket — and straight to the
/// catalog otherwise. Either way one parser and one executor run the change.
public struct LibraryGrants: Sendable {
    /// The library as the person named it.
    public let library: String
    public let catalog: Catalog
    /// The catalog's path, for messages.
    public let catalogPath: String
    /// The environment, which says where the picker socket is (`PickerSocketPath`).
    public let environment: [String: String]

    public init(library: String, catalog: Catalog, catalogPath: String, environment: [String: String]) {
        self.library = library
        self.catalog = catalog
        self.catalogPath = catalogPath
        self.environment = environment
    }

    /// The mount of this library, if one is active (read again at each use: a pick may
    /// outlive a mount).
    public var mountpoint: String? { MountTable.current().mountpoint(ofLibrary: library) }

    /// Runs one write of the picker language (one transaction).
    public func send(_ write: [UInt8]) throws(ChannelError) {
        if let mountpoint {
            switch PickerSocketClient.call(.picker(text: Data(write)), mountpoint: Array(mountpoint.utf8), environment: environment) {
            case .replied(let reply) where reply.errno == 0: return
            case .replied(let reply): throw .refused(errno: reply.errno, reply.message)
            case .failed(let why): throw .failed(why + ".")
            case .unavailable: try sendThroughMount(write, picker: mountpoint + "/.picker")
            }
            return
        }
        let state: LibraryState
        do throws(CatalogError) {
            state = try LibraryState(catalog: catalog)
        } catch {
            throw .failed("cannot read the catalog \(catalogPath): \(error).")
        }
        do throws(LibraryState.WriteError) {
            _ = try state.execute(write: write, now: SystemClock.wallNanoseconds())
        } catch {
            switch error {
            case .refused(let reason): throw .refused(errno: ViewLayerError(reason.errnoKind).errno, reason.reason)
            case .catalog(let reason): throw .failed("the catalog could not save the change: \(reason).")
            }
        }
    }

    /// Writes to `.picker` (when the daemon has no picker socket): the errno is this write's
    /// own, but `.picker` has no per-writer reason to read back, so the errno is explained.
    private func sendThroughMount(_ write: [UInt8], picker: String) throws(ChannelError) {
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try FileDescriptor.open(picker, .writeOnly)
        } catch {
            throw error == .permissionDenied
                ? .refused(errno: Errno.permissionDenied.rawValue, "only the user who mounted the library may write \(picker).")
                : .failed("cannot open \(picker): \(error).")
        }
        defer { descriptor.close() }
        // One write: the control file takes the whole command at once or refuses it.
        let code: Errno
        do throws(Errno) {
            let written = try descriptor.write(write)
            if written == write.count { return }
            code = .ioError
        } catch {
            code = error
        }
        throw .refused(errno: code.rawValue, "\(picker) refused the change: \(code).")
    }

    /// Makes one call on the daemon channel of the mount of this library; throws when
    /// nothing is mounted, the daemon cannot be reached, or it refused.
    public func call(_ call: ChannelCall) throws(ChannelError) -> ChannelReply {
        guard let mountpoint else { throw .notMounted("\(library) is not mounted.") }
        return try Self.call(call, mountpoint: mountpoint, environment: environment)
    }

    /// Makes one call on the daemon channel of the mount at `mountpoint`.
    public static func call(_ call: ChannelCall, mountpoint: String, environment: [String: String]) throws(ChannelError) -> ChannelReply {
        switch PickerSocketClient.call(call, mountpoint: Array(mountpoint.utf8), environment: environment) {
        case .replied(let reply) where reply.errno == 0: return reply
        case .replied(let reply): throw .refused(errno: reply.errno, reply.message)
        case .failed(let why): throw .failed(why + ".")
        case .unavailable:
            let socket = PickerSocketPath.socket(mountpoint: Array(mountpoint.utf8), environment: environment)
            throw .failed(
                "cannot reach the photofs daemon of \(mountpoint) on \(socket): is it mounted by this user with the same XDG_RUNTIME_DIR?")
        }
    }
}

/// Why a change or a call through `LibraryGrants` did not happen, with the sentence shown.
public enum ChannelError: Error, Sendable {
    /// The daemon, `.picker` or the executor refused it; `errno` says why (EINVAL: bad input).
    case refused(errno: Int32, String)
    /// The library is not mounted, so there is no daemon to ask.
    case notMounted(String)
    /// The exchange or the catalog failed.
    case failed(String)

    /// The one sentence for people.
    public var message: String {
        switch self {
        case .refused(_, let message), .notMounted(let message), .failed(let message): message
        }
    }
}
