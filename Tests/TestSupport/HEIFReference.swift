import Foundation

/// libheif's own decode as the reference for photofs's compatible JPEGs: `heif-convert`
/// (Debian's libheif-examples) writes the primary image, and Pillow without any HEIF plugin
/// opens both and gives their PSNR.
public enum HEIFReference {
    /// The path of heif-convert, when installed.
    public static let heifConvert: String? = ["/usr/bin/heif-convert", "/usr/local/bin/heif-convert"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// heif-convert's output for the primary image of `source` (PNG or JPEG by the name of
    /// `output`; at JPEG `quality` when given): a file of several images is written as
    /// NAME-1, NAME-2, ... in the order heif-info lists them. Nil when it cannot decode.
    public static func convert(_ source: String, to output: String, quality: Int? = nil) throws -> String? {
        guard let heifConvert else { return nil }
        guard try ExternalTools.run(heifConvert, (quality.map { ["-q", "\($0)"] } ?? []) + [source, output]).status == 0 else {
            return nil
        }
        if FileManager.default.fileExists(atPath: output) { return output }
        let info = try ExternalTools.run("/usr/bin/env", ["heif-info", source]).stdout
        let images = info.split(separator: "\n").filter { $0.hasPrefix("image:") }
        guard let primary = images.firstIndex(where: { $0.contains("primary") }) else { return nil }
        let numbered = (output as NSString).deletingPathExtension + "-\(primary + 1)." + (output as NSString).pathExtension
        return FileManager.default.fileExists(atPath: numbered) ? numbered : nil
    }

    /// Reads "jpeg<TAB>reference" lines and prints "ok FORMAT WIDTH HEIGHT PSNR" or
    /// "error ..." per line; fails at once if Pillow has a HEIF or AVIF opener loaded.
    public static let compareScript = """
        import math, sys
        from PIL import Image, ImageChops, ImageStat
        assert not any('heif' in k.lower() or 'avif' in k.lower() for k in Image.OPEN), 'a HEIF plugin is loaded'
        for line in sys.stdin:
            jpeg, ref = line.rstrip('\\n').split('\\t')
            try:
                ours = Image.open(jpeg)
                fmt = ours.format
                ours = ours.convert('RGB')
                theirs = Image.open(ref)
                if theirs.mode in ('RGBA', 'LA', 'P'):
                    theirs = theirs.convert('RGBA')
                    white = Image.new('RGBA', theirs.size, (255, 255, 255, 255))
                    theirs = Image.alpha_composite(white, theirs)
                theirs = theirs.convert('RGB')
                if ours.size != theirs.size:
                    print('error size %s vs %s' % (ours.size, theirs.size)); continue
                sq = ImageStat.Stat(ImageChops.difference(ours, theirs)).sum2
                mse = sum(sq) / (3.0 * ours.size[0] * ours.size[1])
                psnr = 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)
                print('ok %s %d %d %.2f' % (fmt, ours.size[0], ours.size[1], psnr))
            except Exception as e:
                print('error %s' % e)
        """

    /// One comparison: Pillow's format of the JPEG and its PSNR against the reference.
    public struct Comparison: Sendable {
        public var format: String
        public var psnr: Double
    }

    /// Compares each (jpeg, reference) pair with `python` (one that imports PIL); nil for a
    /// pair that could not be compared, with the line Pillow printed.
    public static func compare(_ pairs: [(jpeg: String, reference: String)], python: String, in directory: String) throws
        -> [Result<Comparison, ComparisonFailure>]
    {
        let script = directory + "/compare.py"
        try Data(compareScript.utf8).write(to: URL(fileURLWithPath: script))
        let input = directory + "/pairs.txt"
        let lines = pairs.map { "\($0.jpeg)\t\($0.reference)" }.joined(separator: "\n") + "\n"
        try Data(lines.utf8).write(to: URL(fileURLWithPath: input))
        let result = try ExternalTools.run("/bin/sh", ["-c", "\"$0\" \"$1\" < \"$2\"", python, script, input])
        let output = result.stdout.split(separator: "\n").map(String.init)
        return pairs.indices.map { index in
            guard index < output.count else { return .failure(ComparisonFailure(line: "no answer: \(result.stderr)")) }
            let words = output[index].split(separator: " ").map(String.init)
            guard words.count == 5, words[0] == "ok", let psnr = Double(words[4]) else {
                return .failure(ComparisonFailure(line: output[index]))
            }
            return .success(Comparison(format: words[1], psnr: psnr))
        }
    }

    /// What Pillow said about a pair it could not compare.
    public struct ComparisonFailure: Error, Sendable, CustomStringConvertible {
        public var line: String
        public var description: String { line }
    }
}
