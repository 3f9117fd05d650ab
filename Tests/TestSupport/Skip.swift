import Foundation
import Testing

/// How a test that cannot run here says so: it prints the reason and is recorded as
/// skipped (cancelled), never as passed. Where every prerequisite is installed (CI:
/// `.ci/run` sets `PHOTOFS_REQUIRE_ALL=1`, and the corpus lies beside the clone), a skip
/// is recorded as a failure instead, so a test cannot pass by silently not running.
public enum Skip {
    /// The environment variable that turns skips into failures.
    public static let requireAllVariable = "PHOTOFS_REQUIRE_ALL"

    /// Whether skips are failures in this run.
    public static var isForbidden: Bool {
        ProcessInfo.processInfo.environment[requireAllVariable].map { !$0.isEmpty && $0 != "0" } ?? false
    }

    /// Ends the current test case as skipped because `reason`, or fails it when skips are
    /// forbidden.
    public static func because(_ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Never {
        print("skipped: \(reason)")
        if isForbidden {
            Issue.record("skipped although \(requireAllVariable) is set: \(reason)", sourceLocation: sourceLocation)
        }
        try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation)
    }
}
