import Foundation
import TestSupport
import Testing

@testable import MediaFormats

/// Sniffs and walks every file of the shared corpus and compares with exiftool's manifest.
/// Skips (with a printed message) when the corpus is absent.
@Suite struct CorpusSweepTests {
    struct Entry {
        var path: String
        var fileType: String?
        var hasExif: Bool
        /// exiftool's group for GPSLatitude (`EXIF:GPS`, `XMP:XMP-exif`, `QuickTime:UserData`).
        var gpsSource: String?
    }

    static func manifest() -> [Entry]? {
        guard let dir = Corpus.directory, let data = FileManager.default.contents(atPath: dir + "/manifest.json"),
            let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return nil }
        return list.compactMap { item in
            guard let path = item["path"] as? String else { return nil }
            let gpsSource = (item["sources"] as? [String: Any])?["GPSLatitude"] as? String
            return Entry(
                path: path, fileType: item["fileType"] as? String, hasExif: item["hasExif"] as? Bool ?? false, gpsSource: gpsSource)
        }
    }

    /// The formats exiftool's FileType may correspond to (HEIC and HEIF are one family: exiftool
    /// names it after the major brand, photofs after the codec brands).
    static func expected(_ fileType: String?) -> Set<MediaFormat?> {
        switch fileType {
        case "JPEG": [.jpeg]
        case "PNG": [.png]
        case "GIF": [.gif]
        case "WEBP", "Extended WEBP": [.webp]
        case "TIFF": [.tiff]
        case "DNG": [.dng]
        case "NEF", "CR2", "ARW", "PEF": [.raw]
        case "HEIC", "HEIF": [.heic, .heif]
        case "AVIF": [.avif]
        case "MP4", "M4V": [.mp4]
        case "MOV": [.mov]
        case "3GP", "3G2": [.threeGP]
        case "BMP": [.bmp]
        case "AVI": [.avi]
        case "BTF": [.bigTIFF]
        case "JXL": [.jxl]
        case "M2TS": [.mpegTS]
        default: [nil]  // MKV, unknown.
        }
    }

    /// Files where the sniffer knowingly disagrees with exiftool, and why.
    static let sniffExceptions: [String: String] = [
        "libheif/github_50.heic":
            "ftyp major brand is four spaces, compatible brand heic: photofs reads the brand list, exiftool falls back to MP4",
        "metadata-extractor-images/crash-4c160f4263f8511f532bb22f967bfe166d5eae12.fuzzed":
            "ftyp with a 64-bit size and unknown brands: exiftool guesses MOV, photofs refuses",
    ]

    /// Files whose container is broken, so the walker must report the layout incomplete.
    static let brokenContainers: [String: String] = [
        "metadata-extractor-images/IllegalArgumentException.HeifReader.processBoxes.heif":
            "iprp child with size 5, top-level box past the end",
        "metadata-extractor-images/crash-167ecb9d69e6ef44bff716199a9f012a07031c86.fuzzed": "moov and trak run past their parents",
        "metadata-extractor-images/crash-824dc868159f3eb43c96582729145c1e017a5c60.fuzzed": "PNG iCCP chunk length runs past the end",
        "metadata-extractor-images/crash-df184d06840aa0db523cbbdb34b014e6eb2ef0d2.fuzzed":
            "AVI RIFF size and its IDIT chunk run past the end",
        "exiftool/Pentax.avi": "a cut-down test file: the RIFF size claims the frames that were cut off",
        "metadata-extractor-images/crash-e0ccbf0ef4ce1d0fab652f684cc96d1e0fb62e63.fuzzed": "RIFF and VP8X sizes run past the end",
        "metadata-extractor-images/crash-ef2965b3ce863f83f2dd6ef18b05f61785652c3e.fuzzed": "RIFF size and a chunk run past the end",
    ]

    /// Files marked hasExif whose EXIF the walker cannot hand over as a TIFF block, and why.
    static let exifExceptions: [String: String] = [:]

    @Test func corpusSniffsAndWalksConsistently() throws {
        guard let dir = Corpus.directory, let entries = Self.manifest() else {
            try Skip.because("CorpusSweepTests: corpus not found (set PHOTOFS_CORPUS or place it at ../shared/corpus); skipped")
        }
        var exceptions: [String] = []
        for entry in entries {
            let source = try #require(FileByteSource(path: dir + "/" + entry.path), "\(entry.path)")
            let format = MediaSniffer.format(of: source)
            if !Self.expected(entry.fileType).contains(format) {
                if let reason = Self.sniffExceptions[entry.path] {
                    exceptions.append("sniff \(entry.path): \(format.map(\.rawValue) ?? "nil") vs \(entry.fileType ?? "nil"): \(reason)")
                } else {
                    Issue.record("\(entry.path): sniffed \(format.map(\.rawValue) ?? "nil"), exiftool says \(entry.fileType ?? "nil")")
                }
            }
            guard let format else { continue }
            let layout = ContainerWalker.layout(of: source, format: format)
            if !layout.isComplete || !layout.problems.isEmpty {
                print("  \(entry.path) [\(format.rawValue)] complete=\(layout.isComplete) problems=\(layout.problems)")
            }
            #expect(
                layout.isComplete == (Self.brokenContainers[entry.path] == nil),
                "\(entry.path): complete=\(layout.isComplete) \(layout.problems)")
            // Wherever exiftool reads a location, the walker hands that block to redaction.
            if let group = entry.gpsSource {
                let covered =
                    group.hasPrefix("EXIF:")
                    ? !layout.exifBlocks.isEmpty
                    : group.hasPrefix("XMP")
                        ? !layout.xmpPackets.isEmpty
                        : group.hasPrefix("QuickTime") ? !(layout.movie?.locationPayloads.isEmpty ?? true) : false
                #expect(covered, "\(entry.path): exiftool reads a location from \(group), the walker found no such block")
            }
            guard entry.hasExif else { continue }
            let valid = layout.exifBlocks.contains { block in
                (try? source.read(at: block.offset, count: 4)).map { TIFFWalker.isHeader($0[...]) } ?? false
            }
            if !valid {
                if let reason = Self.exifExceptions[entry.path] {
                    exceptions.append("exif \(entry.path): \(reason)")
                } else {
                    Issue.record(
                        "\(entry.path): manifest says hasExif, walker found no TIFF block (\(layout.exifBlocks), \(layout.problems))")
                }
            }
        }
        print("CorpusSweepTests: \(entries.count) files; known exceptions:")
        for line in exceptions { print("  " + line) }
    }

    /// The corpus files in which exiftool finds any XMP, or nil when exiftool is not installed.
    static func filesWithXMPByExiftool(in dir: String) -> Set<String>? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["exiftool", "-q", "-q", "-r", "-if", "$XMP:all", "-p", "$Directory/$FileName", dir]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus <= 2 else { return nil }
        let prefix = dir.hasSuffix("/") ? dir : dir + "/"
        return Set(
            String(decoding: data, as: UTF8.self).split(separator: "\n").map {
                String($0.dropFirst($0.hasPrefix(prefix) ? prefix.count : 0))
            })
    }

    /// The walker finds an XMP packet in exactly the files where exiftool (an independent
    /// reader) finds XMP, so redaction sees every packet that could hold a location.
    @Test func xmpPacketsAgreeWithExiftool() throws {
        guard let dir = Corpus.directory, let entries = Self.manifest() else {
            try Skip.because("CorpusSweepTests: corpus not found; skipped")
        }
        guard let expected = Self.filesWithXMPByExiftool(in: dir), !expected.isEmpty else {
            try Skip.because("CorpusSweepTests: exiftool not available; XMP cross-check skipped")
        }
        for entry in entries {
            let source = try #require(FileByteSource(path: dir + "/" + entry.path))
            guard let format = MediaSniffer.format(of: source) else { continue }
            let found = !ContainerWalker.layout(of: source, format: format).xmpPackets.isEmpty
            #expect(
                found == expected.contains(entry.path), "\(entry.path): walker XMP \(found), exiftool XMP \(expected.contains(entry.path))")
        }
    }
}
