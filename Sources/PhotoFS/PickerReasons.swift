import Glibc
import Synchronization

/// The one-line reasons of refused `.picker` writes, by the writing thread.
///
/// The mount has no OPEN requests (see `Read.swift`), so there is no per-descriptor
/// state: a refused write's reason is kept for the thread id the kernel reports with the
/// write, and that thread's reads of `.picker` through a descriptor open for writing
/// return it for a short while (the CLI writes and reads back at once) or until its next
/// write succeeds. Every other read gets the rendered state. Bounded: only the mounting user and root can write here, but a loop of
/// refused writes from fresh processes must still not grow memory.
final class PickerReasons: Sendable {
    private struct Entry {
        let text: [UInt8]
        let expires: UInt64
    }

    private let lifetimeNanoseconds: UInt64
    private let capacity: Int
    private let entries = Mutex([Int32: Entry]())

    init(lifetimeSeconds: Double = 5, capacity: Int = 64) {
        self.lifetimeNanoseconds = UInt64(max(0, lifetimeSeconds) * 1e9)
        self.capacity = max(1, capacity)
    }

    /// Records `line` as what `thread` reads next.
    func set(_ line: [UInt8], for thread: Int32) {
        let now = Self.now()
        entries.withLock { entries in
            entries = entries.filter { $0.value.expires > now }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.expires < $1.value.expires }) {
                entries.removeValue(forKey: oldest.key)
            }
            entries[thread] = Entry(text: line, expires: now &+ lifetimeNanoseconds)
        }
    }

    /// Forgets `thread`'s reason (its write succeeded).
    func clear(for thread: Int32) {
        _ = entries.withLock { $0.removeValue(forKey: thread) }
    }

    /// The reason `thread` should read, if it has a fresh one.
    func reason(for thread: Int32) -> [UInt8]? {
        let now = Self.now()
        return entries.withLock { entries in
            guard let entry = entries[thread] else { return nil }
            guard entry.expires > now else {
                entries.removeValue(forKey: thread)
                return nil
            }
            return entry.text
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
