import SystemKit

/// Why a D-Bus step failed: what was being done and sd-bus's errno.
struct BusError: Error, Sendable, CustomStringConvertible {
    /// The step (`connect to the session bus`, `own org.freedesktop.impl.portal.desktop.photofs`).
    let step: String
    /// The errno sd-bus returned (negated).
    let code: Errno

    init(_ step: String, _ result: Int32) {
        self.step = step
        self.code = Errno(rawValue: result < 0 ? -result : result)
    }

    init(_ step: String, _ code: Errno) {
        self.step = step
        self.code = code
    }

    var description: String { "cannot \(step): \(code)" }

    /// Throws when `result` (an sd-bus return value) is negative.
    @discardableResult
    static func check(_ result: Int32, _ step: @autoclosure () -> String) throws(BusError) -> Int32 {
        guard result >= 0 else { throw BusError(step(), result) }
        return result
    }
}
