import Foundation
import Glibc

/// A generated sample library, catalogued with the built binary, for the behaviour suite:
/// both of its targets start from the same files and catalog, with no app yet.
public struct BehaviourLibrary {
    public struct Member {
        public let id: String
        /// Library-relative path.
        public let path: String
        public var basename: String { String(path.split(separator: "/").last ?? "") }
    }

    public let base: String
    public let library: String
    public let catalog: String
    public let assets: [Member]
    /// Assets whose files hold a location.
    public let located: [Member]

    public struct SetupFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The binary that generates and catalogs the library: `$PHOTOFS_BIN` when set (a copy
    /// another user may run), else this package's build.
    public static var binary: String? {
        if let path = ProcessInfo.processInfo.environment["PHOTOFS_BIN"], path.hasPrefix("/") { return path }
        return ExternalTools.photofs
    }

    /// Generates and catalogs a library in a fresh directory under `root`.
    public init(root: String, count: Int = 12) throws {
        guard let photofs = Self.binary else { throw SetupFailure(description: "photofs is not built") }
        var template = Array("\(root)/photofs-behaviour-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SetupFailure(description: "mkdtemp under \(root) failed")
        }
        base = String(cString: made)
        library = base + "/library"
        catalog = base + "/catalog.sqlite"
        for arguments in [
            ["generate", "--count", String(count), "--seed", "5", library], ["index", "--quiet", "--catalog", catalog, library],
        ] {
            let result = try ExternalTools.run(photofs, arguments)
            guard result.status == 0 else { throw SetupFailure(description: "photofs \(arguments[0]): \(result.stderr)") }
        }
        assets = try Self.members(photofs, catalog, [])
        located = try Self.members(photofs, catalog, ["type:image", "has:location"])
    }

    /// The catalogued assets passing `filter`, by `photofs ls --json`.
    private static func members(_ photofs: String, _ catalog: String, _ filter: [String]) throws -> [Member] {
        let result = try ExternalTools.run(photofs, ["ls", "--json", "--catalog", catalog] + filter)
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return objects.compactMap { object in
            guard let id = object["id"] as? String, let path = object["path"] as? String else { return nil }
            return Member(id: id, path: path)
        }
    }

    /// Assets with basenames no other asset has (their names in a view are their basenames).
    public var uniquelyNamed: [Member] {
        let counts = Dictionary(grouping: assets, by: \.basename).mapValues(\.count)
        return assets.filter { counts[$0.basename] == 1 && $0.basename.allSatisfy { $0.isASCII && $0 != " " } }
    }

    /// The original bytes of a library file.
    public func original(_ member: Member) -> [UInt8] {
        (FileManager.default.contents(atPath: library + "/" + member.path)).map { [UInt8]($0) } ?? []
    }

    public func remove() {
        _ = try? FileManager.default.removeItem(atPath: base)
    }
}
