import Foundation
import Glibc

/// Starts `argv` (argv[0] an absolute path) as a shell would: test threads block signals and
/// a spawned child would inherit that mask, so the child starts with an empty one.
/// `arrange` sets up its descriptors; `environment` defaults to this process's. Returns the
/// child's pid, or posix_spawn's error number.
func spawnUnblocked(
    _ argv: [String], environment: [String]? = nil, arrange: (inout posix_spawn_file_actions_t) -> Void
) -> Result<pid_t, SpawnFailure> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    arrange(&actions)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    var pid = pid_t()
    let spawned: Int32
    if let environment {
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer { cEnvironment.forEach { free($0) } }
        spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, cEnvironment)
    } else {
        spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, environ)
    }
    return spawned == 0 ? .success(pid) : .failure(SpawnFailure(errno: spawned))
}

/// posix_spawn refused to start a child.
struct SpawnFailure: Error {
    let errno: Int32
}

/// A wait status as a shell reports it: the exit code, or 128 + the signal that ended it.
func shellStatus(_ raw: Int32) -> Int32 {
    raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
}
