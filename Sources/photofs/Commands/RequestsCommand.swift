import DaemonClient
/// `photofs requests`: the apps' pending pick requests on the mounts of this user.
enum RequestsCommand {
    static let command = Command(
        name: "requests",
        summary: "list the apps' pending pick requests",
        usage: ["requests [--json] [--mountpoint DIR]"],
        details: """
            One line per request an app wrote to its .request file and nobody answered yet: app, request \
            number, how many photos it may get, what media it asks for, add or replace, how long it waited \
            and when it expires. Answer one with 'photofs pick APP'. With --json, an array of objects with \
            the keys mountpoint, id, app, limit (null: no limit), media, mode, ordered, waited, expires_in, title (null unless the request came from a desktop file dialog), new_app (true when photofs made the app for this request).
            """,
        options: [.flag("json", "print a JSON array"), .value("mountpoint", short: "m", "DIR", "only this mount")]
    ) { arguments, environment throws(CLIError) in
        guard arguments.positionals.isEmpty else { throw .usage("requests takes no arguments.") }
        let mounts = arguments.value("mountpoint").map { [$0] } ?? MountTable.current().entries.map(\.mountpoint)
        var found: [(String, PendingRequest)] = []
        for mountpoint in mounts {
            do throws(CLIError) {
                found += try PendingRequest.list(mountpoint: mountpoint, environment: environment.variables).map { (mountpoint, $0) }
            } catch {
                // A mount of another user or of an older photofs has no channel for this user.
                if arguments.value("mountpoint") != nil { throw error }
            }
        }
        if arguments.flag("json") {
            let objects = found.map { mountpoint, request in
                "{\"mountpoint\":\(quote(mountpoint)),\"id\":\(request.id),\"app\":\(quote(request.app)),"
                    + "\"limit\":\(request.limit.map(String.init) ?? "null"),\"media\":\(request.media.map { quote($0.description) } ?? "null"),"
                    + "\"mode\":\"\(request.mode.rawValue)\",\"ordered\":\(request.ordered),\"waited\":\(request.waited),"
                    + "\"expires_in\":\(request.expiresIn),\"title\":\(request.title.map(quote) ?? "null"),\"new_app\":\(request.newApp)}"
            }
            environment.output.line("[" + objects.joined(separator: ",") + "]")
            return .success
        }
        if found.isEmpty {
            environment.output.line("no pending requests")
            return .success
        }
        for (mountpoint, request) in found {
            let limit = request.limit.map { "up to \($0)" } ?? "any number"
            let media = request.media.map { ", \($0)" } ?? ""
            environment.output.line(
                "\(request.app) (#\(request.id) on \(mountpoint)): \(limit)\(media), \(request.mode.rawValue), "
                    + "waiting \(request.waited) s, expires in \(request.expiresIn) s: photofs pick \(request.app)")
        }
        return .success
    }

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
