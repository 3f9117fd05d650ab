import Foundation
import Glibc

/// A command running while the test does something else (an app waiting on its request, a
/// picker serving its page): stdout and stderr go to a file; `wait` reaps it, and a child
/// still running at the end is ended by its pid.
final class BackgroundProcess {
    let pid: pid_t
    let outputPath: String
    private var status: Int32?

    init(_ argv: [String], output: String) throws {
        outputPath = output
        let started = spawnUnblocked(argv) { actions in
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        guard case .success(let pid) = started else {
            throw IntegrationLibrary.SetupFailure(description: "cannot start \(argv[0])")
        }
        self.pid = pid
    }

    /// What it printed so far.
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for it to exit; its exit status, or nil when still running.
    func wait(timeout: Double) -> Int32? {
        if let status { return status }
        let deadline = Date().addingTimeInterval(timeout)
        var raw: Int32 = 0
        repeat {
            if waitpid(pid, &raw, WNOHANG) == pid {
                status = shellStatus(raw)
                return status
            }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }

    /// Waits until `condition` holds on the output (or `timeout` passes); whether it did.
    func waitForOutput(timeout: Double, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if condition(output) { return true }
            usleep(50_000)
        } while Date() < deadline
        return condition(output)
    }

    /// Ends it (by pid) if it still runs, and reaps it.
    func stop() {
        if wait(timeout: 0) == nil {
            kill(pid, SIGTERM)
            if wait(timeout: 5) == nil {
                kill(pid, SIGKILL)
                _ = wait(timeout: 5)
            }
        }
    }

    deinit { stop() }
}
