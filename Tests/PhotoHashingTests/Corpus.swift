import Glibc

/// The shared photo corpus: `$PHOTOFS_CORPUS`, else `<package root>/../shared/corpus`, else
/// (for a git worktree one level deeper, `/work/wt/<name>`) `<package root>/../../shared/corpus`.
enum Corpus {
    static let directory: String? = {
        if let env = getenv("PHOTOFS_CORPUS") {
            let path = String(cString: env)
            return access(path + "/manifest.json", R_OK) == 0 ? path : nil
        }
        var root = "\(#filePath)"
        for _ in 0..<3 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
        for candidate in [root + "/../shared/corpus", root + "/../../shared/corpus"] where access(candidate + "/manifest.json", R_OK) == 0 {
            return candidate
        }
        return nil
    }()
}
