import DaemonClient
import SystemKit

/// The commands' way to change grants and call the daemon (`LibraryGrants`), with each
/// refusal mapped to the documented exit code.
struct PickerClient {
    let context: LibraryContext
    /// The environment, which says where the picker socket is (`PickerSocketPath`).
    var environment: [String: String] = [:]

    /// The library's grants, through its daemon when mounted.
    var grants: LibraryGrants {
        LibraryGrants(library: context.library, catalog: context.catalog, catalogPath: context.catalogPath, environment: environment)
    }

    /// The mount of this library, if one is active.
    var mountpoint: String? { grants.mountpoint }

    /// Runs one write (one transaction); throws the refusal as a CLI error.
    func send(_ write: [UInt8]) throws(CLIError) {
        do throws(ChannelError) {
            try grants.send(write)
        } catch {
            throw Self.cliError(error)
        }
    }

    /// Makes one call on the daemon channel of the mount of this library; throws when
    /// nothing is mounted, the daemon cannot be reached, or it refused.
    func call(_ call: ChannelCall) throws(CLIError) -> ChannelReply {
        do throws(ChannelError) {
            return try grants.call(call)
        } catch {
            throw Self.cliError(error)
        }
    }

    /// Makes one call on the daemon channel of the mount at `mountpoint`.
    static func call(_ call: ChannelCall, mountpoint: String, environment: [String: String]) throws(CLIError) -> ChannelReply {
        do throws(ChannelError) {
            return try LibraryGrants.call(call, mountpoint: mountpoint, environment: environment)
        } catch {
            throw cliError(error)
        }
    }

    /// Maps a refusal to the documented exit code.
    static func cliError(_ error: ChannelError) -> CLIError {
        switch error {
        case .refused(let code, let reason): cliError(errno: code, reason: reason)
        case .notMounted(let reason): .notFound(reason)
        case .failed(let reason): .failure(reason)
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
