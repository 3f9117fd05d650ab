/// The files of nodes that serve another representation than the original (an app with
/// `--representation compatible` sees its HEIC photos as JPEG). The file is made by the
/// layer's `RepresentationProviding` on the first LOOKUP or GETATTR that needs its size (or
/// before, when the daemon prepares it), so that the size is right from the first `stat`;
/// READ only reads the made file. Visibility, revocation and the source check are those of
/// originals: a READ has already checked that the caller may still see the inode, then
/// checks that the source is still the catalogued file (ESTALE otherwise) and reads the
/// ready JPEG through the layer's `SourceReading`.
extension ViewLayer {
    /// The size `stat` shows for a file node: the made file's for another representation (0
    /// when it cannot be made; its LOOKUP and READ then fail), else the source's.
    func servedSize(of node: ViewNode, asset: Asset) -> Int64 {
        guard node.representation != .original else { return asset.size }
        return ((try? representedFile(of: node, asset: asset)) ?? nil)?.size ?? 0
    }

    /// Fails a LOOKUP or GETATTR of a node whose representation cannot be made, rather than
    /// show a file whose every read fails: one the decoder refuses is withheld (ENOENT, its
    /// reason in `.picker`); other failures (a busy machine, an unwritable cache) are errors.
    func checkRepresentation(of node: ViewNode, in tree: ViewTree) throws(ViewLayerError) {
        guard node.representation != .original, let asset = tree.asset(of: node) else { return }
        do throws(ViewLayerError) {
            _ = try representedFile(of: node, asset: asset)
        } catch {
            if case .representationUnavailable = error, representations?.refusals()[asset.id] != nil { throw .notFound }
            throw error
        }
    }

    /// Whether a listing leaves `node` out: its representation cannot be made because the
    /// decoder refused its source (made now when not tried yet, as the listing's sizes need).
    public func isWithheldRepresentation(_ node: ViewNode, in tree: ViewTree) -> Bool {
        guard node.representation != .original, let asset = tree.asset(of: node) else { return false }
        if representations?.refusals()[asset.id] != nil { return true }
        _ = try? representedFile(of: node, asset: asset)
        return representations?.refusals()[asset.id] != nil
    }

    /// `.picker`'s text with each grant whose compatible JPEG cannot be made turned into a
    /// comment that says so, as other withheld files are: `# select APP ID  # withheld:
    /// PATH has no compatible JPEG (REASON)`.
    func markingRefusals(_ text: [UInt8], in tree: ViewTree) -> [UInt8] {
        guard let refused = representations?.refusals(), !refused.isEmpty else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 128)
        for line in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            defer { out.append(UInt8(ascii: "\n")) }
            let words = line.split(separator: UInt8(ascii: " "), maxSplits: 3)
            guard words.count >= 3, Array(words[0]) == Array("select".utf8),
                let id = AssetID(String(decoding: words[2], as: UTF8.self)), let reason = refused[id],
                // Only a conversion is ever refused, so the app serves this asset converted.
                let app = tree.snapshot.apps[String(decoding: words[1], as: UTF8.self)], app.representation != .original,
                let comment = Self.range(of: Array("  # ".utf8), in: Array(line))
            else {
                out += line
                continue
            }
            let bytes = Array(line)
            let why = String(reason.map { $0 == "\n" ? " " : $0 })
            out +=
                Array("# ".utf8) + bytes[..<comment.upperBound] + Array("withheld: ".utf8) + bytes[comment.upperBound...]
                + Array(" has no compatible JPEG (\(why))".utf8)
        }
        if !out.isEmpty { out.removeLast() }
        return out
    }

    private static func range(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle) {
            return start..<(start + needle.count)
        }
        return nil
    }

    /// The nodes of `tree`'s app views that serve another representation than the original:
    /// what the daemon makes in the background after an access change.
    public func representedNodes(in tree: ViewTree) -> [ViewNode] {
        // Runs after every picker write: apps that serve originals (most) are skipped by
        // their settings, not by looking at each of their files.
        tree.apps.filter { tree.snapshot.apps[$0.name]?.representation != .original }.flatMap { app in
            tree.children(of: app.part.top.inode).filter { $0.representation != .original }
        }
    }

    /// Makes `node`'s file if it is not made yet; a failure is left for its LOOKUP to report.
    public func prepareRepresentation(of node: ViewNode, in tree: ViewTree) {
        guard let asset = tree.asset(of: node) else { return }
        _ = try? representedFile(of: node, asset: asset)
    }

    /// READ of a node with another representation, after the caller's visibility check: the
    /// source is checked as for an original, then the made file is read (made again if the
    /// cache evicted it meanwhile).
    func readRepresented(_ node: ViewNode, asset: Asset, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ViewLayerError)
        -> Int
    {
        try reader.checkSource(asset)
        for _ in 0..<2 {
            guard let file = try representedFile(of: node, asset: asset) else { break }
            if let count = try reader.read(file, at: offset, into: buffer) { return count }
            representations?.forget(file)
        }
        throw .representationUnavailable("read of a compatible JPEG that the cache keeps losing")
    }

    /// The ready file of `node`, made now if needed; nil when the node serves the original bytes.
    private func representedFile(of node: ViewNode, asset: Asset) throws(ViewLayerError) -> RepresentedFile? {
        guard node.representation != .original, case .file(_, let policy, _) = node.kind else { return nil }
        guard let representations else {
            throw .representationUnavailable("serve a compatible JPEG without a representation provider")
        }
        do throws(RepresentationError) {
            if let known = try representations.file(of: asset, as: node.representation, location: policy) { return known }
            // Opened here and handed over: the provider never calls back for it.
            let source: Int32
            do throws(ViewLayerError) {
                source = try reader.openSource(asset)
            } catch {
                switch error {
                case .system(let code, _): throw .sourceUnreadable(errno: code)
                default: throw .sourceChanged
                }
            }
            return try representations.make(of: asset, as: node.representation, location: policy, source: source)
        } catch {
            switch error {
            case .sourceChanged: throw .stale
            case .sourceUnreadable(let code): throw .system(errno: code, call: "open the source of a compatible JPEG")
            case .cacheUnwritable(let code): throw .system(errno: code, call: "store a compatible JPEG")
            case .cannotConvert(let reason): throw .representationUnavailable("make a compatible JPEG (\(reason))")
            }
        }
    }
}
