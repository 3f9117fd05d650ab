/// A file that takes another's name whole or not at all: its bytes are written under a
/// temporary name beside the final one, readable and writable by the owner only (0600),
/// then renamed over the final name (`commit`, atomic on one file system) or removed
/// (`abandon`). A reader of the final name sees the old file or the new one, never a part.
public struct ReplacementFile: Sendable {
    /// A step that failed: the name it failed on (the temporary one, or the final one for
    /// the rename) and why.
    public struct Failure: Error, Hashable {
        public let path: String
        public let errno: Errno
    }

    /// The temporary name the bytes are written under: the final name and a suffix.
    public let temporaryPath: String
    /// The name the file takes on `commit`.
    public let finalPath: String
    /// Open for writing.
    public let descriptor: FileDescriptor

    /// Creates (or truncates) `finalPath + suffix`; the suffix must keep writers of the same
    /// final name apart (a process id, and a random part where threads may race).
    public init(replacing finalPath: String, suffix: String) throws(Failure) {
        let temporaryPath = finalPath + suffix
        do throws(Errno) {
            descriptor = try FileDescriptor.open(temporaryPath, [.writeOnly, .create, .truncate], mode: 0o600)
        } catch {
            throw Failure(path: temporaryPath, errno: error)
        }
        self.temporaryPath = temporaryPath
        self.finalPath = finalPath
    }

    /// Writes all of `bytes`; when that fails the file is abandoned.
    public func write(_ bytes: [UInt8]) throws(Failure) {
        do throws(Errno) {
            try descriptor.writeAll(bytes)
        } catch {
            abandon()
            throw Failure(path: temporaryPath, errno: error)
        }
    }

    /// Closes the file and renames it over the final name; when that fails it is removed.
    public func commit() throws(Failure) {
        descriptor.close()
        do throws(Errno) {
            try FileSystem.rename(temporaryPath, to: finalPath)
        } catch {
            try? FileSystem.remove(temporaryPath)
            throw Failure(path: finalPath, errno: error)
        }
    }

    /// Closes and removes the file; the final name is left as it was.
    public func abandon() {
        descriptor.close()
        try? FileSystem.remove(temporaryPath)
    }
}
