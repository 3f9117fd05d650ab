import Glibc

/// The system's local time zone (`TZ`, `/etc/localtime`), for `--until` dates written
/// without a zone.
public enum LocalTime {
    /// Seconds since 1970 of a local civil time; nil when it does not exist (a DST gap).
    public static func seconds(_ civil: CivilTime) -> Int64? {
        var parts = tm()
        parts.tm_year = Int32(civil.year - 1900)
        parts.tm_mon = Int32(civil.month - 1)
        parts.tm_mday = Int32(civil.day)
        parts.tm_hour = Int32(civil.hour)
        parts.tm_min = Int32(civil.minute)
        parts.tm_sec = Int32(civil.second)
        // -1: let the C library decide whether daylight saving time is in force then.
        parts.tm_isdst = -1
        let result = mktime(&parts)
        guard result != -1 else { return nil }
        // mktime normalises a time that does not exist (moves it by an hour): refuse it instead.
        guard parts.tm_hour == Int32(civil.hour), parts.tm_min == Int32(civil.minute), parts.tm_mday == Int32(civil.day) else {
            return nil
        }
        return Int64(result)
    }
}

/// The wall clock, for deciding which grants have expired.
public enum WallClock {
    /// Nanoseconds since 1970.
    public static func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
