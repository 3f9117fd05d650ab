/// What the app reads back from its request file once the request is settled.
///
/// Text form: a status line, then for `selected` one name per line in the order picked.
/// Names are the file names as they appear in the app's view; a backslash is written `\\`
/// and a newline byte `\n`, so every name is one line.
public enum PickAnswer: Hashable, Sendable {
    /// The person chose these names (possibly none), in this order.
    case selected([[UInt8]])
    /// The person pressed Cancel (or the owner refused the request).
    case cancelled
    /// Nobody answered before the request's timeout.
    case expired
    /// The app's last write was not a request photofs could take: why, with the column.
    case refused(String)

    /// The bytes the app reads.
    public var bytes: [UInt8] {
        switch self {
        case .cancelled: return Array("cancelled\n".utf8)
        case .expired: return Array("expired\n".utf8)
        case .refused(let reason):
            return Array("refused: ".utf8) + reason.utf8.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 } + [UInt8(ascii: "\n")]
        case .selected(let names):
            var out = Array("selected \(names.count)\n".utf8)
            for name in names {
                for byte in name {
                    switch byte {
                    case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                    case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                    default: out.append(byte)
                    }
                }
                out.append(UInt8(ascii: "\n"))
            }
            return out
        }
    }

    /// A word for log lines (never names).
    public var summary: String {
        switch self {
        case .selected(let names): "selected \(names.count)"
        case .cancelled: "cancelled"
        case .expired: "expired"
        case .refused: "refused"
        }
    }
}
