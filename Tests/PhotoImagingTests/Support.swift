import Foundation
import Glibc
import PhotoCore
import PhotoSamples
import TestSupport
import Testing

@testable import PhotoImaging

/// Files and tools the imaging tests share.
enum Fixture {
    /// A fresh temporary directory (removed by the caller's `defer`).
    static func directory() -> String {
        var template = Array("/tmp/photofs-imaging-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return path
    }

    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// A picture whose four quadrants have four colours (red, green, blue, white from the
    /// top left, clockwise), so that a rotation or a mirror shows in the corners.
    static func quadrants(width: Int, height: Int) -> PixelImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let colour: (UInt8, UInt8, UInt8) =
                    switch (x < width / 2, y < height / 2) {
                    case (true, true): (255, 0, 0)
                    case (false, true): (0, 255, 0)
                    case (false, false): (0, 0, 255)
                    case (true, false): (255, 255, 255)
                    }
                let p = (y * width + x) * 3
                pixels[p] = colour.0
                pixels[p + 1] = colour.1
                pixels[p + 2] = colour.2
            }
        }
        return PixelImage(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// The colour at (x, y).
    static func pixel(_ image: PixelImage, _ x: Int, _ y: Int) -> [UInt8] {
        let p = (y * image.width + x) * image.channels
        return Array(image.pixels[p..<(p + 3)])
    }

    /// Which quadrant colour a pixel is closest to: "R", "G", "B" or "W".
    static func colourName(_ rgb: [UInt8]) -> String {
        let names: [(String, [Int])] = [("R", [255, 0, 0]), ("G", [0, 255, 0]), ("B", [0, 0, 255]), ("W", [255, 255, 255])]
        let values = rgb.map(Int.init)
        return names.min { a, b in
            zip(a.1, values).map { ($0 - $1) * ($0 - $1) }.reduce(0, +) < zip(b.1, values).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)
        }!.0
    }

    /// The corner colours, top-left, top-right, bottom-right, bottom-left.
    static func corners(_ image: PixelImage) -> String {
        let w = image.width - 2
        let h = image.height - 2
        return [pixel(image, 1, 1), pixel(image, w, 1), pixel(image, w, h), pixel(image, 1, h)].map(colourName).joined()
    }

    /// A JPEG of `image` with an EXIF block built from `fields` right after SOI.
    static func jpeg(_ image: PixelImage, exif fields: ExifFields? = nil, quality: Int = 95) throws -> [UInt8] {
        let jpeg = try JPEGCodec.encode(image, quality: quality)
        guard let fields else { return jpeg }
        let tiff = ExifBuilder(byteOrder: .bigEndian).build(fields).bytes
        let length = 2 + 6 + tiff.count
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("Exif\0\0".utf8) + tiff + jpeg[2...]
    }

    /// The HEICs a test compares two decodes of: made here with heif-enc (quality 90) from
    /// `picture` at 320x240 and at two odd sizes, each named `prefix` and its size, then the
    /// corpus's phone HEICs (`phoneHEICs`). Skips the test without heif-enc.
    static func heics(prefix: String, of picture: (_ width: Int, _ height: Int) -> PixelImage) throws -> [(String, [UInt8])] {
        guard let encoder = tool("heif-enc") else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = directory()
        defer { remove(dir) }
        let made = try [(320, 240), (321, 239), (64, 97)].map { width, height in
            let name = "\(prefix)\(width)x\(height)"
            return (name, read(try heic(encoder, of: picture(width, height), in: dir, named: name)))
        }
        return try made + phoneHEICs()
    }

    /// A HEIC made here with `encoder` (heif-enc, quality 90) from a JPEG of `image` (with
    /// `exif` when given), the JPEG written as `dir/name.jpg` and the HEIC beside it; its path.
    @discardableResult
    static func heic(
        _ encoder: String, of image: PixelImage, exif: ExifFields? = nil, in dir: String, named name: String
    ) throws -> String {
        write(try jpeg(image, exif: exif), to: "\(dir)/\(name).jpg")
        try #require(try run(encoder, ["-q", "90", "-o", "\(dir)/\(name).heic", "\(dir)/\(name).jpg"]).status == 0)
        return "\(dir)/\(name).heic"
    }

    /// The shared corpus's phone HEICs of 4 MP or more (and at most 16,384 pixels wide), by
    /// path; none when the corpus is absent.
    static func phoneHEICs() throws -> [(String, [UInt8])] {
        guard Corpus.directory != nil else { return [] }
        var out: [(String, [UInt8])] = []
        for entry in try Corpus.manifest() where (entry["fileType"] as? String) == "HEIC" {
            let width = entry["ImageWidth"] as? Int ?? 0
            guard let path = Corpus.path(entry), width * (entry["ImageHeight"] as? Int ?? 0) >= 4_000_000, width <= 16384 else { continue }
            out.append((path, read(path)))
        }
        return out
    }

    /// Writes a fixture; a fixture that cannot be written stops the test run at once.
    static func write(_ bytes: [UInt8], to path: String) {
        precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write the fixture \(path)")
    }

    static func read(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

    /// The path of `tool` on PATH, or nil (the caller skips with a printed reason).
    static func tool(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if access(path, X_OK) == 0 { return path }
        }
        print("skipping: \(name) is not installed")
        return nil
    }

    /// Runs a program to completion; its exit status and standard output.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `.build/debug/photofs`, the decoder process the pool starts.
    static let photofs: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".build/debug/photofs").path
    }()

    static var photofsBuilt: Bool {
        if access(photofs, X_OK) == 0 { return true }
        print("skipping: \(photofs) is not built (run 'swift build' first)")
        return false
    }
}
