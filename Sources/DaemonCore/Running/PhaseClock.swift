import SystemKit

/// Times the daemon's startup phases on the monotonic clock, with the resident memory
/// after each, for the debug log: where the seconds between `photofs mount` and a ready
/// mount go, and what stays in memory.
public struct PhaseClock {
    private var last: Double = PhaseClock.now()
    private var laps: [(name: String, seconds: Double, residentKB: Int)] = []

    /// Ends the phase that started at the previous lap (or at creation).
    public init() {}

    public mutating func lap(_ name: String) {
        let now = Self.now()
        laps.append((name, now - last, Self.residentKB()))
        last = now
    }

    /// `name 123 ms (RSS 45 MB), ...` for every lap so far.
    public var summary: String {
        laps.map { "\($0.name) \(Int(($0.seconds * 1000).rounded())) ms (RSS \($0.residentKB / 1024) MiB)" }.joined(separator: ", ")
    }

    private static func now() -> Double {
        SystemClock.monotonicSeconds()
    }

    /// VmRSS of this process in KiB, from /proc/self/statm (pages), or 0 when unreadable.
    private static func residentKB() -> Int {
        guard let bytes = SmallFile.read("/proc/self/statm", limit: 128) else { return 0 }
        let fields = bytes.split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Memory.pageSize / 1024
    }
}
