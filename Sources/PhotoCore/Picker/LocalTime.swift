import SystemKit

/// The system's local time zone (`TZ`, `/etc/localtime`), for `--until` dates written
/// without a zone.
public enum LocalTime {
    /// Seconds since 1970 of a local civil time; nil when it does not exist (a DST gap).
    public static func seconds(_ civil: CivilTime) -> Int64? {
        LocalTimeZone.seconds(
            year: civil.year, month: civil.month, day: civil.day, hour: civil.hour, minute: civil.minute, second: civil.second)
    }
}

/// The wall clock, for deciding which grants have expired.
public enum WallClock {
    /// Nanoseconds since 1970.
    public static func nanoseconds() -> Int64 { SystemClock.wallNanoseconds() }
}
