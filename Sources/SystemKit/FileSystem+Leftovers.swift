extension FileSystem {
    /// The folder of `path` ("/" for a file at the root, "." for a bare name).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Removes the files beside `path` named `path` + `marker` + a process id (then the end
    /// of the name or `-` and anything) whose process no longer runs: what a process that
    /// wrote a new file under a private name and died before renaming or linking it into
    /// place left behind. The files of this process and of running ones are kept.
    public static func removeLeftovers(of path: String, marker: String) {
        let folder = folder(of: path)
        let base = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let prefix = Array((base + marker).utf8)
        guard let names = try? names(inDirectory: folder) else { return }
        for name in names where name.count > prefix.count && name.starts(with: prefix) {
            let rest = name.dropFirst(prefix.count)
            let digits = rest.prefix { $0 != UInt8(ascii: "-") }
            guard let owner = Int32(String(decoding: digits, as: UTF8.self)), owner != CurrentProcess.id,
                !CurrentProcess.processExists(owner)
            else { continue }
            try? remove(folder + "/" + String(decoding: name, as: UTF8.self))
        }
    }
}
