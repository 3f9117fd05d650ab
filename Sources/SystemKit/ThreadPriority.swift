import Glibc

/// The calling thread's scheduling priority. Linux keeps the nice value per thread, so
/// `setpriority(PRIO_PROCESS, 0, ...)` changes only the thread that calls it.
public enum ThreadPriority {
    /// Sets the calling thread's nice value to `nice` (higher is lower priority); false
    /// when the system refused.
    @discardableResult
    public static func setNice(_ nice: Int32) -> Bool {
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) == 0
    }
}
