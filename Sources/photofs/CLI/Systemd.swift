import CSystemd
import SystemKit

/// The one door to libsystemd: lines for the journal's native protocol and readiness
/// messages for the service manager. Both do nothing where systemd is not there.
enum Systemd {
    /// Sends one journal entry made of `NAME=value` fields (a value may hold newlines).
    static func journal(_ fields: [(name: String, value: String)]) {
        // One buffer holds every field; the vectors point into it while it is pinned.
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for field in fields {
            let start = bytes.count
            bytes += Array((field.name + "=" + field.value).utf8)
            ranges.append(start..<bytes.count)
        }
        bytes.withUnsafeMutableBytes { buffer in
            var vectors = ranges.map { iovec(iov_base: buffer.baseAddress! + $0.lowerBound, iov_len: $0.count) }
            _ = sd_journal_sendv(&vectors, Int32(vectors.count))
        }
    }

    /// Sends a readiness/status message to `$NOTIFY_SOCKET` (nothing when it is unset).
    static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }
}
