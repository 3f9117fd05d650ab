import PhotoCore
import SystemKit

/// Names processes for one-time runs (`photofs run --once`) and tells whether one still runs.
public enum RunProcess {
    /// This process.
    public static func current() -> RunOwner? {
        owner(of: CurrentProcess.id)
    }

    /// The process `pid` as it is now, or nil when there is none.
    public static func owner(of pid: Int32) -> RunOwner? {
        guard let boot = bootID(), let start = startTicks(of: pid) else { return nil }
        return RunOwner(pid: pid, startTicks: start, bootID: boot)
    }

    /// Whether `owner` still runs: same boot, and its pid names a process started at the
    /// same tick (so a reused pid does not count).
    public static func isRunning(_ owner: RunOwner) -> Bool {
        guard bootID() == owner.bootID else { return false }
        return startTicks(of: owner.pid) == owner.startTicks
    }

    private static func bootID() -> String? {
        guard let text = readSmallFile("/proc/sys/kernel/random/boot_id") else { return nil }
        let trimmed = text.filter { !$0.isWhitespace }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Field 22 of `/proc/PID/stat`. The command name (field 2) may hold spaces and
    /// parentheses, so fields are counted after its last `)`. A zombie counts as gone.
    private static func startTicks(of pid: Int32) -> UInt64? {
        guard let text = readSmallFile("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (the state), so field 22 is fields[19].
        guard fields.count > 19, fields[0] != "Z", fields[0] != "X" else { return nil }
        return UInt64(fields[19])
    }

    private static func readSmallFile(_ path: String) -> String? {
        guard let bytes = SmallFile.read(path, limit: 4096) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
