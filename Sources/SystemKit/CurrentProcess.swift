import Glibc

/// Facts about this process.
public enum CurrentProcess {
    /// The effective user id (whose files this process may read).
    public static var effectiveUserID: UInt32 { UInt32(geteuid()) }

    /// The real user id (who started this process).
    public static var realUserID: UInt32 { UInt32(getuid()) }

    /// The process id.
    public static var id: Int32 { getpid() }

    /// The processors online now (at least 1).
    public static var onlineProcessorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The environment, as `NAME=value` entries.
    public static var environment: [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            entries.append(String(cString: entry))
            pointer += 1
        }
        return entries
    }
}
