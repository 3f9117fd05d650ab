import Glibc

/// The terminal on a descriptor: whether there is one, its size, and the key-at-a-time
/// mode an interactive picker reads in.
public enum Terminal {
    /// Whether `descriptor` is a terminal (`isatty`).
    public static func isTerminal(_ descriptor: FileDescriptor) -> Bool { isatty(descriptor.rawValue) == 1 }

    /// The rows of the terminal on `descriptor` (`TIOCGWINSZ`); nil when it is none.
    public static func rows(of descriptor: FileDescriptor) -> Int? {
        var size = winsize()
        guard ioctl(descriptor.rawValue, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return Int(size.ws_row)
    }

    /// The settings a terminal had before `enterKeyMode`, to put back with `restore`.
    public struct SavedSettings: @unchecked Sendable {
        fileprivate let descriptor: FileDescriptor
        fileprivate let settings: termios
    }

    /// Switches the terminal on `descriptor` to reading one key at a time without echo (no
    /// canonical line editing; a read returns after one byte); what to restore after.
    public static func enterKeyMode(_ descriptor: FileDescriptor) -> SavedSettings {
        var saved = termios()
        tcgetattr(descriptor.rawValue, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 1  // VMIN
        raw.c_cc.5 = 0  // VTIME
        tcsetattr(descriptor.rawValue, TCSANOW, &raw)
        return SavedSettings(descriptor: descriptor, settings: saved)
    }

    /// Puts back the settings `enterKeyMode` saved.
    public static func restore(_ saved: SavedSettings) {
        var settings = saved.settings
        tcsetattr(saved.descriptor.rawValue, TCSANOW, &settings)
    }
}

extension FileDescriptor {
    /// Descriptor 0.
    public static let standardInput = FileDescriptor(rawValue: 0)
    /// Descriptor 1.
    public static let standardOutput = FileDescriptor(rawValue: 1)
    /// Descriptor 2.
    public static let standardError = FileDescriptor(rawValue: 2)
}
