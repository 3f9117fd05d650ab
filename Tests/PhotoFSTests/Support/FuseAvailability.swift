import Glibc
import TestSupport

/// Whether this machine can mount FUSE file systems; tests that mount skip with the reason.
enum FuseAvailability {
    /// Nil when mounting is possible, else why not.
    static let missing: String? = {
        if access("/dev/fuse", R_OK | W_OK) != 0 { return "/dev/fuse is missing or not accessible" }
        let path = String(cString: getenv("PATH") ?? strdup("/usr/bin:/bin"))
        let found = path.split(separator: ":").contains { access("\($0)/fusermount3", X_OK) == 0 }
        return found ? nil : "fusermount3 is not installed"
    }()

    static var available: Bool {
        Skip.unless(missing == nil, "mount test: \(missing ?? "")")
    }
}
