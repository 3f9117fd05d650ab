import Synchronization
import SystemKit

/// Which READDIRPLUS chunks carry each name's attributes and which carry names alone.
///
/// The mount asks the kernel for READDIRPLUS on every chunk of a listing. An entry with
/// attributes makes the kernel build an inode and a dentry for the name, which spares a
/// LOOKUP round trip per name to a caller that stats what it listed (`find -printf %s`,
/// `du`, `ls -l`, backup tools) and costs a caller that only wants the names (`ls -f`) far
/// more than the listing itself. An entry without attributes (node 0) is a plain name to
/// the kernel. The daemon cannot see why a directory is read, so it goes by what callers
/// did before, the way the kernel's own "auto" heuristic does, with a longer memory:
///
/// - a listing's first chunk carries attributes, capped at `firstChunkBytes` (small
///   folders come whole with their attributes, as the kernel's heuristic has them);
/// - a later chunk carries attributes when the reading thread looked names of that
///   directory up since its previous chunk (a reader that stats as it lists), or when its
///   program is a known stat walker;
/// - a program becomes a known stat walker once one of its threads looks up
///   `lookupsToLearn` names of a directory right after reading a listing of it without
///   attributes (`find` reads a whole directory, then stats every name). Programs are
///   known by their name (`/proc/TID/comm`); the first big folder such a program walks
///   on a mount still pays its lookups, the next ones do not.
///
/// What an entry carries never changes what a caller may see: the names and attributes
/// are the same the caller's LOOKUP would get, from the same views.
final class StatWalkers: Sendable {
    /// The most reply bytes of a first chunk with attributes: about 780 names, the kernel's
    /// own first chunk at its default 128 KiB buffer.
    static let firstChunkBytes = 128 << 10
    /// Lookups of a just-listed directory's names that mark a program as a stat walker.
    static let lookupsToLearn = 32
    /// The most programs remembered and threads followed (a bound on the daemon's memory).
    static let capacity = 256

    private struct Reading {
        var directory: UInt64
        var lookups: Int
    }

    private struct State {
        /// The directory each thread last read without attributes, and its lookups since.
        var readings: [Int32: Reading] = [:]
        var programs: Set<[UInt8]> = []
    }

    private let state = Mutex(State())

    /// Whether a chunk past the first of `directory`'s listing, read by thread `tid`,
    /// carries attributes. Records a chunk without them.
    func wantsAttributes(tid: Int32, directory: UInt64) -> Bool {
        let recent = state.withLock { state -> Bool? in
            guard let reading = state.readings[tid], reading.directory == directory else { return nil }
            return reading.lookups > 0
        }
        if recent == true { return true }
        if let name = Self.programName(tid), state.withLock({ $0.programs.contains(name) }) { return true }
        state.withLock { state in
            if state.readings.count >= Self.capacity, state.readings[tid] == nil { state.readings.removeAll(keepingCapacity: true) }
            state.readings[tid] = Reading(directory: directory, lookups: 0)
        }
        return false
    }

    /// Counts a LOOKUP of a name in `parent` by thread `tid`; learns its program once it
    /// looked up enough names of a directory it just read without attributes.
    func lookedUp(tid: Int32, parent: UInt64) {
        let learned = state.withLock { state -> Bool in
            guard var reading = state.readings[tid], reading.directory == parent else { return false }
            reading.lookups += 1
            guard reading.lookups >= Self.lookupsToLearn else {
                state.readings[tid] = reading
                return false
            }
            state.readings[tid] = nil
            return true
        }
        guard learned, let name = Self.programName(tid) else { return }
        state.withLock { state in
            if state.programs.count >= Self.capacity { state.programs.removeAll(keepingCapacity: true) }
            state.programs.insert(name)
        }
    }

    /// Whether `program` is a known stat walker.
    func knows(_ program: [UInt8]) -> Bool {
        state.withLock { $0.programs.contains(program) }
    }

    /// The name of thread `tid`'s program (`/proc/TID/comm`, which holds the thread's
    /// name, its program's unless it renamed itself); nil when it cannot be read.
    static func programName(_ tid: Int32) -> [UInt8]? {
        guard tid > 0 else { return nil }
        guard let bytes = SmallFile.read("/proc/\(tid)/comm", limit: 32) else { return nil }
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        return Array(bytes[0..<end])
    }
}
