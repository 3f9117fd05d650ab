/// The environment variables and files photofs uses, for `photofs help environment` and
/// the man page's ENVIRONMENT and FILES sections.
enum EnvironmentReference {
    static let variables: [(name: String, meaning: String)] = [
        ("PHOTOFS_LIBRARY", "the library commands work on when neither --library nor --catalog is given"),
        ("XDG_DATA_HOME", "catalogs live in $XDG_DATA_HOME/photofs/catalogs (default ~/.local/share)"),
        ("PHOTOFS_BIN", "the photofs binary the mount(8) helper runs (default: photofs on the PATH, /usr/local/bin, /usr/bin)"),
        (
            "NOTIFY_SOCKET",
            "set by systemd for Type=notify units: photofs mount -f sends STATUS=, READY=1 once the mount answers, STOPPING=1"
        ),
        ("JOURNAL_STREAM", "set by systemd: when it names stderr, the daemon logs to the journal with priorities and fields"),
        ("PATH", "where fusermount3 and, for photofs run, bwrap are found"),
        ("HOME", "the default catalog location (~/.local/share) and, for photofs run, where the app's view appears (~/Pictures)"),
        ("TMPDIR", "where photofs demo creates its sample library and mount (default /tmp)"),
        ("XDG_CACHE_HOME", "thumbnails live in $XDG_CACHE_HOME/thumbnails, compatible JPEGs in $XDG_CACHE_HOME/photofs (default ~/.cache)"),
        (
            "XDG_RUNTIME_DIR",
            "where the daemon's picker socket lives ($XDG_RUNTIME_DIR/photofs; else /run/photofs for root, /tmp/photofs-UID)"
        ),
        (
            "DISPLAY",
            "with WAYLAND_DISPLAY: when set, photofs pick opens its page (with $BROWSER, else xdg-open) and the daemon opens the picker on a request"
        ),
        ("WAYLAND_DISPLAY", "as DISPLAY"),
        (
            "BROWSER",
            "the browser photofs pick and photofs report open their page with (else xdg-open), on a private redirect file"
        ),
        ("DBUS_SESSION_BUS_ADDRESS", "when set, the daemon sends a desktop notification for each pick request"),
    ]

    static let files: [(path: String, meaning: String)] = [
        ("$XDG_DATA_HOME/photofs/catalogs/NAME-HASH.sqlite", "the catalog of a library (--catalog PATH puts it elsewhere)"),
        ("MOUNTPOINT/.picker", "the control file: writes select and deselect, a read lists the apps and their selections"),
        ("MOUNTPOINT/library/", "the whole library, read-only, owner only (all, by-date, by-camera, folders)"),
        ("MOUNTPOINT/apps/APP/", "an app's limited view: granted, passing its filter, GPS stripped unless it may see location"),
        ("/sbin/mount.fuse.photofs", "the mount(8) helper for 'mount -t fuse.photofs' and fstab lines of type fuse.photofs"),
        ("PREFIX/lib/systemd/user/photofs@.service", "the systemd user unit (Type=notify); the instance is the escaped mountpoint"),
        ("~/.config/photofs/mounts/INSTANCE.conf", "PHOTOFS_LIBRARY= and PHOTOFS_OPTIONS= of one photofs@INSTANCE.service"),
        ("$XDG_CACHE_HOME/thumbnails/SIZE/MD5.png", "freedesktop thumbnails made by photofs thumbnails (shared with file managers)"),
        (
            "$XDG_CACHE_HOME/photofs/compatible/KEY.jpg",
            "compatible JPEGs a mount serves to --representation compatible apps (2 GiB, least recently used out; photofs show names them)"
        ),
        (
            "$XDG_RUNTIME_DIR/photofs/picker-HASH.sock",
            "the daemon's picker socket: the CLI's own channel for select, deselect and app changes"
        ),
        ("MOUNTPOINT/apps/APP/.request", "an app's pick request: written by the app, read (blocking) for the person's answer"),
        (
            "/dev/log, /run/systemd/journal/socket",
            "where a daemon in the background logs: the journal when it runs, syslog otherwise (or --log-file)"
        ),
    ]

    /// `photofs help environment`.
    static var help: String {
        var text = "Environment:\n"
        for variable in variables { text += "  " + variable.name + "\n" + wrap(variable.meaning, indent: "      ") + "\n" }
        text += "\nFiles:\n"
        for file in files { text += "  " + file.path + "\n" + wrap(file.meaning, indent: "      ") + "\n" }
        return text
    }
}
