import Glibc

/// The signals photofs handles or hands to children, by number (what Dispatch's signal
/// sources take), and the one disposition it sets.
public enum Signals {
    /// SIGINT: Ctrl-C.
    public static let interrupt = SIGINT
    /// SIGTERM: a polite request to end.
    public static let terminate = SIGTERM
    /// SIGHUP: the terminal went away.
    public static let hangUp = SIGHUP
    /// SIGPIPE: a write to a pipe or socket nobody reads.
    public static let brokenPipe = SIGPIPE

    /// Ignores `signal` in this process (so a Dispatch signal source alone sees it).
    public static func ignore(_ signal: Int32) { _ = Glibc.signal(signal, SIG_IGN) }
}
