import SystemKit

/// The catalog holds every coordinate and every grant: it is created private to its user
/// (file 0600, so SQLite creates its `-wal` and `-shm` files 0600 too, as it copies the
/// main file's mode; directories 0700) and an existing one that others may read is
/// reported, never changed: its mode is the user's decision.
enum CatalogFileModes {
    /// Creates the empty catalog file with mode 0600 when it does not exist yet (an empty
    /// file is an empty SQLite database).
    static func createPrivately(_ path: String) throws(CatalogError) {
        do throws(Errno) {
            try FileDescriptor.open(path, [.writeOnly, .create, .exclusive, .noFollow], mode: 0o600).close()
        } catch {
            // EEXIST: it is there. Anything else is left to SQLite's open, which says it better.
            if error != .fileExists && error != .readOnlyFileSystem && error != .permissionDenied {
                throw .openFailed(path: path, message: error.description)
            }
        }
    }

    /// Whether the catalog file exists and is readable, but it or its directory cannot be
    /// written (a read-only file system answers EROFS even to root).
    static func existsButIsNotWritable(_ path: String) -> Bool {
        guard SystemKit.FileSystem.isAllowed(.read, path) else { return false }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let folder = directory.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : directory
        return !SystemKit.FileSystem.isAllowed(.write, path) || !SystemKit.FileSystem.isAllowed(.write, folder)
    }

    /// What others may read of an existing catalog: one sentence per file or directory
    /// that is readable by its group or by everyone, or none.
    static func exposure(of path: String) -> [String] {
        var found: [String] = []
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let readable = [path, path + "-wal", path + "-shm"].compactMap { file -> (String, UInt32)? in
            guard let status = try? FileStatus.of(path: file), status.permissions & 0o044 != 0 else { return nil }
            return (file, status.permissions & 0o777)
        }
        if let (file, mode) = readable.first {
            let files = readable.count == 1 ? file : "\(file) (and \(readable.count - 1) of its WAL files)"
            found.append(
                "the catalog \(files) is readable by other users (mode \(String(mode, radix: 8))) and holds every photo's location "
                    + "and every grant; 'chmod 600 \(path)*' makes it private")
        }
        let folder = directory.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : directory
        if let status = try? FileStatus.of(path: folder), status.permissions & 0o044 != 0, status.owner == CurrentProcess.realUserID {
            found.append(
                "the catalog's directory \(folder) can be listed by other users (mode \(String(status.permissions & 0o777, radix: 8))); "
                    + "'chmod 700 \(folder)' makes it private")
        }
        return found
    }
}
