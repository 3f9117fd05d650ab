import Foundation

/// Independent readers tests check photofs output with: exiftool and
/// Python's PIL. Tests that need one are skipped (with the reason in the trait) when it
/// is missing.
public enum ExternalTools {
    /// The path of exiftool, when installed.
    public static let exiftool: String? = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// A Python interpreter that can import PIL (Debian's python3-pil), when there is one.
    public static let pythonWithPIL: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { path in
        FileManager.default.isExecutableFile(atPath: path) && (try? run(path, ["-c", "import PIL.Image"]))?.status == 0
    }

    /// `.build/debug/photofs` of this package (found from this file's path), once built.
    public static let photofs: String? = {
        // Tests/TestSupport/ExternalTools.swift: three levels up is the package root.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let path = root.appendingPathComponent(".build/debug/photofs").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs a program to completion and captures its output.
    public static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `exiftool -j -n` (plus `extra` options) of the given files, one dictionary each.
    public static func exiftoolJSON(_ paths: [String], extra: [String] = []) throws -> [[String: Any]] {
        guard let exiftool else { return [] }
        let result = try run(exiftool, ["-j", "-n"] + extra + paths)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return json as? [[String: Any]] ?? []
    }

    /// A fresh temporary directory, removed by the caller.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("photofs-synthesis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
