import PhotoCore

/// One folder of the library as the Folders view shows it: the photos offered in it and
/// its sub-folders (what its `folder:` term shows), the newest as its cover.
public struct PickerFolder: Sendable, Hashable {
    /// The folder's path in the library.
    public var path: String
    public var count: Int
    /// The newest offered asset in the folder.
    public var cover: AssetID
}

extension PickerSetup {
    /// The folders holding offered photos (files at the library's top are in none), by
    /// path, each with its count and cover.
    public func folders() -> [PickerFolder] {
        var byPath: [String: PickerFolder] = [:]
        // Candidates are newest first, so the first seen in a folder is its cover.
        for asset in candidates {
            var path = PickerLabels.folder(asset)
            while !path.isEmpty {
                if byPath[path] == nil {
                    byPath[path] = PickerFolder(path: path, count: 1, cover: asset.id)
                } else {
                    byPath[path]!.count += 1
                }
                path = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
            }
        }
        return byPath.values.sorted { $0.path < $1.path }
    }

    /// The search term that shows one folder's photos, its sub-folders' included.
    public static func folderTerm(_ path: String) -> String {
        "folder:" + (path.contains("'") ? "\"" + path + "\"" : "'" + path + "'")
    }
}
