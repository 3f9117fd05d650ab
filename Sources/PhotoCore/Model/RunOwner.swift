/// One process of one boot, named so that it cannot be mistaken for a later process that
/// reuses its pid: the owner of a one-time run's grants (`photofs run --once`).
///
/// Written `PID:START:BOOT` in the picker language: the pid, the process's start time in
/// clock ticks since boot (field 22 of `/proc/PID/stat`) and the kernel's boot id.
public struct RunOwner: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var startTicks: UInt64
    /// `/proc/sys/kernel/random/boot_id`: a pid and start time only mean something within one boot.
    public var bootID: String

    public init(pid: Int32, startTicks: UInt64, bootID: String) {
        self.pid = pid
        self.startTicks = startTicks
        self.bootID = bootID
    }

    /// Parses `PID:START:BOOT`; nil when it is not that (a boot id is 1–64 of hex digits and `-`).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let pid = Int32(parts[0]), pid > 0, let start = UInt64(parts[1]) else { return nil }
        let boot = parts[2]
        guard (1...64).contains(boot.utf8.count), boot.utf8.allSatisfy({ $0.isHexDigitOrDash }) else { return nil }
        self.init(pid: pid, startTicks: start, bootID: String(boot))
    }

    public var description: String { "\(pid):\(startTicks):\(bootID)" }
}

extension UInt8 {
    fileprivate var isHexDigitOrDash: Bool {
        (self >= 0x30 && self <= 0x39) || (self >= 0x61 && self <= 0x66) || (self >= 0x41 && self <= 0x46) || self == UInt8(ascii: "-")
    }
}
