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

extension Skip {
    /// For a suite's `.enabled(if:)` trait or a gate that returns whether to run: true when
    /// the prerequisite is there; otherwise prints the reason and returns false, except when
    /// skips are forbidden, where it returns true so the test runs and fails on what is missing.
    public static func unless(_ present: Bool, _ reason: @autoclosure () -> String) -> Bool {
        if present { return true }
        if isForbidden {
            print("not skipping although \(reason()) (\(requireAllVariable) is set)")
            return true
        }
        print("skipped: \(reason())")
        return false
    }
}

extension Skip {
    /// Ends the current test case as skipped because of something no install step can
    /// provide on this machine (a service a container does not run, such as journald): never
    /// a failure, even when skips are forbidden; the reason is printed, so the log says which.
    public static func unavailableHere(_ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Never {
        print("skipped (not available on this machine): \(reason)")
        try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation)
    }
}
