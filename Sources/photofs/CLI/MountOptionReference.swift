/// The `-o` options of the mount(8) helper `mount.fuse.photofs` (and the fourth field of
/// an fstab line), as `photofs help mount-options` and the man page describe them. The
/// helper script accepts exactly these (checked by the man page test).
enum MountOptionReference {
    struct Row: Sendable {
        /// The option words (`catalog=PATH`; a trailing `=*` or `*` takes any suffix).
        let options: [String]
        let effect: String
    }

    static let rows: [Row] = [
        Row(options: ["catalog=PATH"], effect: "photofs mount --catalog PATH (default: the XDG location of the mounting user)"),
        Row(
            options: ["allow_other"],
            effect: "photofs mount --allow-other: apps bound to a uid may use the mount (default_permissions comes with it)"),
        Row(options: ["debug"], effect: "photofs mount --debug"),
        Row(options: ["log_level=LEVEL"], effect: "photofs mount --log-level LEVEL"),
        Row(options: ["log_file=PATH"], effect: "photofs mount --log-file PATH"),
        Row(
            options: [
                "ro", "nosuid", "suid", "nodev", "dev", "noexec", "exec", "noatime", "atime", "relatime", "norelatime", "strictatime",
                "nostrictatime", "nodiratime", "diratime", "lazytime", "nolazytime", "sync", "async", "dirsync", "default_permissions",
                "auto_unmount", "context=*", "fscontext=*", "defcontext=*", "rootcontext=*",
            ],
            effect: "passed to FUSE (ro also makes .picker read-only)"),
        Row(
            options: [
                "rw", "defaults", "auto", "noauto", "nofail", "_netdev", "user", "nouser", "users", "owner", "group", "user=*", "uhelper=*",
                "comment=*", "x-*", "X-*",
            ],
            effect: "for mount(8) and systemd; the helper drops them"),
    ]

    static let rules =
        "Anything else is refused with the option's name, before anything is mounted. Values may not contain commas. The "
        + "helper runs photofs mount, which returns once the mount answers; it prints nothing on success and exits as mount(8) "
        + "expects: 0 mounted, 1 a bad option or invocation, 32 the mount failed (photofs says why)."

    /// `photofs help mount-options`.
    static var help: String {
        var text = "Options of 'mount -t fuse.photofs LIBRARY MOUNTPOINT -o OPTIONS' and of fstab lines:\n\n"
        for row in rows {
            text += wrap(row.options.joined(separator: " "), indent: "  ") + "\n" + wrap(row.effect, indent: "      ") + "\n"
        }
        return text + "\n" + wrap(rules, indent: "  ") + "\n"
    }
}
