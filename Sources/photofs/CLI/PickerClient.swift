import DaemonCore
import Foundation
import FuseKit
import PhotoCatalog
import PhotoCore
import SystemKit

/// Sends picker commands the way the README says: to the daemon when the library is mounted
/// (so it applies them and invalidates the kernel's caches) — over its picker socket, which
/// answers this call alone, or through `MOUNTPOINT/.picker` when there is no socket —
/// straight to the catalog otherwise. Either way one parser and one executor run them.
struct PickerClient {
    let context: LibraryContext
    /// The environment, which says where the picker socket is (`PickerSocketPath`).
    var environment: [String: String] = [:]

    /// The mount of this library, if one is active.
    var mountpoint: String? {
        let library = MountChecks.realPath(context.library) ?? context.library
        return MountTable.current().entries.first { (MountChecks.realPath($0.library) ?? $0.library) == library }?.mountpoint
    }

    /// Runs one write (one transaction); throws the refusal as a CLI error.
    func send(_ write: [UInt8]) throws(CLIError) {
        if let mountpoint {
            switch PickerSocketClient.call(.picker(text: Data(write)), mountpoint: Array(mountpoint.utf8), environment: environment) {
            case .replied(let reply) where reply.errno == 0: return
            case .replied(let reply): throw Self.cliError(errno: reply.errno, reason: reply.message)
            case .failed(let why): throw .failure(why + ".")
            case .unavailable: try sendThroughMount(write, picker: mountpoint + "/.picker")
            }
            return
        }
        let state: LibraryState
        do throws(CatalogError) {
            state = try LibraryState(catalog: context.catalog)
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
        do throws(LibraryState.WriteError) {
            _ = try state.execute(write: write, now: SystemClock.wallNanoseconds())
        } catch {
            switch error {
            case .refused(let reason): throw Self.cliError(errno: ViewLayerError(reason.errnoKind).errno, reason: reason.reason)
            case .catalog(let reason): throw .failure("the catalog could not save the change: \(reason).")
            }
        }
    }

    /// Writes to `.picker` (when the daemon has no picker socket): the errno is this write's
    /// own, but `.picker` has no per-writer reason to read back, so the errno is explained.
    private func sendThroughMount(_ write: [UInt8], picker: String) throws(CLIError) {
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try FileDescriptor.open(picker, .writeOnly)
        } catch {
            throw error == .permissionDenied
                ? .refused("only the user who mounted the library may write \(picker).")
                : .failure("cannot open \(picker): \(error).")
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
        throw Self.cliError(errno: code.rawValue, reason: "\(picker) refused the change: \(code).")
    }

    /// Makes one call on the daemon channel of the mount of this library; throws when
    /// nothing is mounted, the daemon cannot be reached, or it refused.
    func call(_ call: ChannelCall) throws(CLIError) -> ChannelReply {
        guard let mountpoint else { throw .notFound("\(context.library) is not mounted.") }
        return try Self.call(call, mountpoint: mountpoint, environment: environment)
    }

    /// Makes one call on the daemon channel of the mount at `mountpoint`.
    static func call(_ call: ChannelCall, mountpoint: String, environment: [String: String]) throws(CLIError) -> ChannelReply {
        switch PickerSocketClient.call(call, mountpoint: Array(mountpoint.utf8), environment: environment) {
        case .replied(let reply) where reply.errno == 0: return reply
        case .replied(let reply): throw cliError(errno: reply.errno, reason: reply.message)
        case .failed(let why): throw .failure(why + ".")
        case .unavailable:
            let socket = PickerSocketPath.socket(mountpoint: Array(mountpoint.utf8), environment: environment)
            throw .failure(
                "cannot reach the photofs daemon of \(mountpoint) on \(socket): is it mounted by this user with the same XDG_RUNTIME_DIR?")
        }
    }

    /// Maps a refusal's errno to the documented exit code.
    static func cliError(errno code: Int32, reason: String) -> CLIError {
        switch Errno(rawValue: code) {
        case .invalidArgument: .usage(reason)
        case .noSuchFileOrDirectory: .notFound(reason)
        case .ioError: .failure(reason)
        default: .refused(reason)
        }
    }
}

extension String {
    /// The string without trailing newlines.
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
