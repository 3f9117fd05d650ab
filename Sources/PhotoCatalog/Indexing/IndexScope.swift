import PhotoCore

/// Which part of the library an index run looks at.
public enum IndexScope: Hashable, Sendable {
    /// The whole library.
    case everything
    /// Only these folders (the live watcher's choice after a burst of changes).
    case folders([FolderScope])

    /// Whether a file at `path` lies in the scope.
    func contains(_ path: LibraryPath) -> Bool {
        switch self {
        case .everything: return true
        case .folders(let folders): return folders.contains { $0.contains(path) }
        }
    }
}

/// One folder of an `IndexScope`.
public struct FolderScope: Hashable, Sendable {
    /// The folder, relative to the library root ("" is the root).
    public var path: LibraryPath
    /// Whether its sub-folders are included (a new or moved-in folder), or only its files.
    public var recursive: Bool

    public init(path: LibraryPath, recursive: Bool) {
        self.path = path
        self.recursive = recursive
    }

    /// Whether a file at `file` lies in this folder (or below it, when recursive).
    func contains(_ file: LibraryPath) -> Bool {
        if recursive {
            return path.bytes.isEmpty || file.bytes.starts(with: path.bytes + [UInt8(ascii: "/")])
        }
        return file.folder == path
    }
}
