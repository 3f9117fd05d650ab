import Glibc

extension CurrentProcess {
    /// Caps the memory this process may allocate (its data segment and private writable
    /// mappings, `RLIMIT_DATA`) at `bytes`, for itself and anything it starts: past the cap
    /// an allocation fails instead of growing the process. Used by decoder processes, so a
    /// hostile file that makes a decoder library ask for gigabytes costs at most the cap.
    /// A cap can only be lowered: a higher one than the current hard limit stays at that.
    public static func limitData(to bytes: Int) throws(Errno) {
        var current = rlimit()
        guard getrlimit(dataResource, &current) == 0 else { throw Errno.current }
        let wanted = rlim_t(max(0, bytes))
        var limit = rlimit(rlim_cur: min(wanted, current.rlim_max), rlim_max: min(wanted, current.rlim_max))
        guard setrlimit(dataResource, &limit) == 0 else { throw Errno.current }
    }

    /// `RLIMIT_DATA` as the type Glibc's `getrlimit` takes on this platform.
    private static var dataResource: __rlimit_resource_t { __rlimit_resource_t(UInt32(RLIMIT_DATA.rawValue)) }
}
