/// The documented exit codes of every `photofs` command.
public enum ExitCode: Int32, Sendable, CaseIterable {
    case success = 0
    /// Something failed at run time (I/O, catalog, mount).
    case failure = 1
    /// The command line was wrong: unknown command or option, missing argument.
    case usage = 2
    /// A dependency is missing: no /dev/fuse, no fusermount3, a library not installed.
    case missingDependency = 3
    /// A named thing does not exist: library, asset, app, mountpoint.
    case notFound = 4
    /// The catalog or control file refused the request (filter, limit, permission).
    case refused = 5

    /// One line per code, for `--help`.
    static let documentation = """
        Exit codes:
          0  success
          1  runtime failure (I/O, catalog unreadable, mount refused by the kernel)
          2  usage error (unknown command or option, missing argument, bad filter, mountpoint not an empty directory)
          3  missing dependency (no /dev/fuse, no fusermount3, no bwrap)
          4  not found (library, asset, app, mountpoint; no catalog yet)
          5  refused (outside the app's filter, over its limit, not permitted, already mounted)
        """
}
