import Glibc

/// The one clock: the monotonic clock for durations and deadlines, the wall clock for
/// dates (both `clock_gettime`).
public enum SystemClock {
    /// Nanoseconds on the monotonic clock (since an arbitrary start, never set back).
    public static func monotonicNanoseconds() -> Int64 { nanoseconds(CLOCK_MONOTONIC) }

    /// Seconds on the monotonic clock.
    public static func monotonicSeconds() -> Double { Double(monotonicNanoseconds()) / 1e9 }

    /// Nanoseconds since 1970 on the wall clock (which can be set back).
    public static func wallNanoseconds() -> Int64 { nanoseconds(CLOCK_REALTIME) }

    /// Whole seconds since 1970 on the wall clock.
    public static func wallSeconds() -> Int64 { wallNanoseconds() / 1_000_000_000 }

    private static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}

/// The system's local time zone (`TZ`, `/etc/localtime`).
public enum LocalTimeZone {
    /// Seconds since 1970 of a local civil time (month and day from 1); nil when it does
    /// not exist there (a daylight saving gap, which `mktime` would move by an hour).
    public static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64? {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        // -1: let the C library decide whether daylight saving time is in force then.
        parts.tm_isdst = -1
        let result = mktime(&parts)
        guard result != -1 else { return nil }
        guard parts.tm_hour == Int32(hour), parts.tm_min == Int32(minute), parts.tm_mday == Int32(day) else { return nil }
        return Int64(result)
    }
}
