import PhotoCatalog
import PhotoCore
import SystemKit

/// `photofs mount LIBRARY MOUNTPOINT`: mounts, indexes what is new (before the mount is
/// ready only on a first mount), and goes to the background once the mount works (`-f`
/// stays in the foreground).
enum MountCommand {
    static let command = Command(
        name: "mount",
        summary: "mount a library, index what is new and run in the background",
        usage: ["mount [-f] [-o OPT[,OPT...]] [--allow-other] [--catalog PATH] LIBRARY MOUNTPOINT"],
        details: """
            Mounts LIBRARY read-only on MOUNTPOINT (an empty directory outside the library) with \
            library/ (all, by-date, by-camera, folders), apps/<app>/ and the .picker control file. \
            A first mount indexes the library before it is ready; a library already in the catalog is \
            served as catalogued at once, and what is new, changed or gone since is indexed right after \
            (until then a changed file is refused, never served as the file it replaced). Without -f \
            the command returns once the mount is ready (exit 0) or with the daemon's reason (non-zero). SIGINT and SIGTERM unmount \
            cleanly; so does 'photofs unmount MOUNTPOINT'. A stale mount left by a daemon that died \
            is cleared first. With --allow-other, uids bound to apps may read their own view; the \
            kernel enforces ownership and mode bits (default_permissions); needs 'user_allow_other' \
            in /etc/fuse.conf unless run as root.
            """,
        options: [
            .flag("foreground", short: "f", "stay in the foreground (log to stderr, or to the journal under systemd)"),
            .value("option", short: "o", "OPT", "FUSE mount options, comma-separated; repeatable"),
            .flag("allow-other", "let other users (apps bound to a uid) use the mount"),
            .value("catalog", "PATH", "the catalog file (default: under $XDG_DATA_HOME/photofs/catalogs)"),
            .value("ready-fd", "N", "write 'ready' to file descriptor N once the mount answers (used by the background parent)"),
            .flag("quiet", short: "q", "print only errors (no progress bar, no 'mounted' line)"),
            .flag("debug", "log every FUSE request (libfuse -d)"),
            .value("log-level", "LEVEL", "debug, info, warning or error (default: info)"),
            .value(
                "log-file", "PATH",
                "log to PATH (appended, created 0600) instead of stderr in front or the journal (syslog without journald) in the background"
            ),
            .value("log-retention", "DURATION", "keep the access log this long: 30d (the default), 12h, 2w; pruned at start and daily"),
            .flag("no-access-log", "do not record which app read which photo (the access log)"),
            .flag("detach", "after the ready line, let go of the terminal: stdout and stderr to /dev/null (used by the background parent)"),
        ]
    ) { arguments, environment throws(CLIError) in
        guard arguments.positionals.count == 2 else { throw .usage("mount needs LIBRARY and MOUNTPOINT; see 'photofs help mount'.") }
        let library = arguments.positionals[0]
        let mountpoint = arguments.positionals[1]
        if let level = arguments.value("log-level"), Logger.Level(name: level) == nil {
            throw .usage("unknown log level '\(level)': use debug, info, warning or error.")
        }
        if let path = arguments.value("log-file") { _ = try Logger.openLogFile(path) }
        _ = try AccessLogArguments.retention(arguments.value("log-retention"))
        try MountChecks.dependencies(environment)
        guard let status = try? FileStatus.of(path: library) else { throw .notFound("the library '\(library)' does not exist.") }
        guard status.kind == .directory else { throw .usage("the library '\(library)' is not a directory.") }
        try MountChecks.mountpoint(mountpoint, library: library, catalog: arguments.value("catalog"), environment: environment)
        let options = try mountOptions(arguments, library: library)
        if arguments.flag("foreground") {
            let readyFD = try arguments.value("ready-fd").map { text throws(CLIError) -> Int32 in
                guard let fd = Int32(text), fd > 2 else { throw .usage("--ready-fd needs a descriptor number above 2.") }
                return fd
            }
            return try MountDaemon.run(
                library: library, mountpoint: mountpoint, options: options, readyFD: readyFD, arguments: arguments, environment: environment
            )
        }
        return try MountBackground.start(arguments: arguments, environment: environment)
    }

    /// The `-o` options for libfuse: the user's, the library as the mount's source, and
    /// `allow_other,default_permissions` with `--allow-other`.
    static func mountOptions(_ arguments: ParsedArguments, library: String) throws(CLIError) -> [String] {
        var options: [String] = []
        for value in arguments.values("option") {
            for option in value.split(separator: ",").map(String.init) where !option.isEmpty {
                if option.hasPrefix("max_read") { throw .usage("-o max_read breaks the mount with libfuse 3.14; leave it out.") }
                options.append(option)
            }
        }
        if arguments.flag("allow-other") {
            options += ["allow_other", "default_permissions"]
        }
        let source = MountChecks.realPath(library) ?? library
        // libfuse splits options at commas and takes `\` as an escape.
        let escaped = source.replacingBytes([UInt8(ascii: "\\"): Array("\\\\".utf8), UInt8(ascii: ","): Array("\\,".utf8)])
        options += ["fsname=" + escaped, "subtype=photofs"]
        return options
    }
}

extension String {
    /// The string with each byte in `replacements` swapped for its replacement bytes.
    func replacingBytes(_ replacements: [UInt8: [UInt8]]) -> String {
        String(decoding: utf8.flatMap { replacements[$0] ?? [$0] }, as: UTF8.self)
    }
}
