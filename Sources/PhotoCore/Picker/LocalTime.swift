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
