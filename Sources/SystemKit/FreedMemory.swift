import CSystem

/// The C allocator's memory that `free` kept for reuse.
public enum FreedMemory {
    /// Hands it back to the system (`malloc_trim`), after a large structure was dropped.
    public static func release() { photofs_release_freed_memory() }
}
