/// Small files read whole in one call: the kernel's `/proc` and `/sys` files, which give
/// their text in one `read`.
public enum SmallFile {
    /// The bytes one `read` of at most `limit` bytes returns from the start of the file at
    /// `path`; nil when it cannot be opened or read, or is empty.
    public static func read(_ path: String, limit: Int = 4096) -> [UInt8]? {
        guard let descriptor = try? FileDescriptor.open(path, .readOnly) else { return nil }
        return descriptor.closeAfter { () -> [UInt8]? in
            var failed = false
            let bytes = [UInt8](unsafeUninitializedCapacity: limit) { storage, initialized in
                do throws(Errno) {
                    initialized = try descriptor.read(into: UnsafeMutableRawBufferPointer(storage))
                } catch {
                    failed = true
                    initialized = 0
                }
            }
            return failed || bytes.isEmpty ? nil : bytes
        }
    }
}
