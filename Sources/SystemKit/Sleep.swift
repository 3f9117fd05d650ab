import Glibc

extension SystemClock {
    /// Blocks the calling thread for about `milliseconds` (a signal may end it early).
    public static func sleep(milliseconds: Int) { _ = usleep(useconds_t(milliseconds * 1000)) }
}
