import Foundation

/// Looks through a daemon's log for what must never be in it: a coordinate of a
/// photo in the library, a GPS tag with a value, or a file's raw bytes.
///
/// A coordinate is caught in any decimal rendering: every number with at least two
/// decimals on a line is compared with the library's latitudes and longitudes (and their
/// absolute values, for "N/S" renderings), and matches when it rounds to the same
/// hundredth of a degree or finer.
enum LogScan {
    /// The lines of `log` that break the rules, each with why.
    static func problems(in log: String, coordinates: [Double]) -> [String] {
        let targets = coordinates.filter { $0.isFinite && abs($0) >= 0.01 }.map { abs($0) }
        var found: [String] = []
        for line in log.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0 == "\u{FFFD}" }) {
                found.append("control or undecodable bytes: \(line.debugDescription.prefix(120))")
                continue
            }
            let lower = line.lowercased()
            if lower.contains("°") { found.append("degree sign: \(line.prefix(200))") }
            for word in ["gpslatitude", "gpslongitude", "gpsaltitude", "latitude", "longitude", "iso6709"]
            where lower.contains(word) && lower.contains(where: \.isNumber) {
                found.append("location word with a number (\(word)): \(line.prefix(200))")
            }
            for number in decimals(in: line)
            where targets.contains(where: { sameToHundredth(abs(number.value), $0, decimals: number.decimals) }) {
                found.append("a coordinate of the library (\(number.text)): \(line.prefix(200))")
            }
        }
        return found
    }

    /// Whether `value`, written with `decimals` decimals, is `coordinate` to that precision
    /// (at least hundredths).
    private static func sameToHundredth(_ value: Double, _ coordinate: Double, decimals: Int) -> Bool {
        let unit = pow(10.0, Double(-min(decimals, 9)))
        return abs(value - coordinate) <= unit
    }

    /// Every decimal number with two or more digits after the point on a line.
    static func decimals(in line: Substring) -> [(text: String, value: Double, decimals: Int)] {
        var result: [(String, Double, Int)] = []
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            guard characters[index].isASCII, characters[index].isNumber else {
                index += 1
                continue
            }
            let start = index
            while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
            guard index + 2 < characters.count, characters[index] == ".", characters[index + 1].isASCII, characters[index + 1].isNumber
            else { continue }
            index += 1
            let fractionStart = index
            while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
            let text = String(characters[start..<index])
            if index - fractionStart >= 2, let value = Double(text) { result.append((text, value, index - fractionStart)) }
        }
        return result
    }
}
