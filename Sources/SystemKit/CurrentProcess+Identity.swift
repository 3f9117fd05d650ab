import Glibc

extension CurrentProcess {
    /// The real group id.
    public static var realGroupID: UInt32 { UInt32(getgid()) }

    /// Ends this process with `code` (running `atexit` handlers, as `exit(3)`).
    public static func exit(_ code: Int32) -> Never { Glibc.exit(code) }

    /// Becomes `user`: drops supplementary groups, then sets group and user (root only),
    /// and checks the real and effective user are now that user.
    public static func become(uid: UInt32, gid: UInt32) throws(Errno) {
        guard setgroups(0, nil) == 0, setgid(gid) == 0, setuid(uid) == 0 else { throw .current }
        guard getuid() == uid, geteuid() == uid else { throw .notPermitted }
    }

    /// Replaces this process with `argv[0]` (a path) run with `argv` and this
    /// environment (`execv`); returns only when that failed, with why.
    public static func replace(with argv: [String]) -> Errno {
        guard let program = argv.first else { return .invalidArgument }
        let arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        execv(program, arguments)
        return .current
    }
}

/// Facts the user database (`getpwuid`) holds about a user.
public enum UserAccount {
    /// The primary group of `uid`; nil when the user is not in the database.
    public static func groupID(of uid: UInt32) -> UInt32? { getpwuid(uid).map { UInt32($0.pointee.pw_gid) } }

    /// The home directory of `uid`; nil when the user or the field is not there.
    public static func homeDirectory(of uid: UInt32) -> String? {
        guard let entry = getpwuid(uid), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
