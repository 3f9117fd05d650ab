/// Turns one `key:value` word into a typed `FilterTerm`, checking the value.
enum FilterTermParser {
    static func term(_ word: FilterWord, at: Int) throws(FilterError) -> FilterTerm {
        guard let rawKey = word.key else { throw .missingKey(word.value, at: at) }
        guard let key = FilterKey(rawValue: rawKey.lowercased()) else { throw .unknownKey(rawKey, at: at) }
        let value = word.value
        guard !value.isEmpty else { throw .emptyValue(key: key, at: word.valueAt) }
        // Offsets inside the value skip an opening quote when the whole value was quoted.
        let base = word.valueAt + (word.quoted ? 1 : 0)
        let bad = FilterError.badValue(key: key, value: value, at: word.valueAt, expected: key.expectation)
        let lower = value.lowercased()

        switch key {
        case .type:
            guard let type = FilterMediaType(rawValue: lower) else { throw bad }
            return .type(type)
        case .taken:
            return .taken(try comparison(value, key: key, base: base, order: { $0.firstKey <= $1.lastKey }, parseDate))
        case .make: return .make(lower)
        case .model: return .model(lower)
        case .camera: return .camera(lower)
        case .lens: return .lens(lower)
        case .has:
            guard let property = FilterProperty(rawValue: lower) else { throw bad }
            return .has(property)
        case .orientation:
            guard let n = Int(value), (1...8).contains(n) else { throw bad }
            return .orientation(n)
        case .width:
            return .width(try comparison(value, key: key, base: base, order: { $0 <= $1 }, parseCount))
        case .height:
            return .height(try comparison(value, key: key, base: base, order: { $0 <= $1 }, parseCount))
        case .megapixels:
            return .megapixels(try comparison(value, key: key, base: base, order: { $0.micros <= $1.micros }, parseDecimal))
        case .ext:
            let ext = lower.hasPrefix(".") ? String(lower.dropFirst()) : lower
            guard !ext.isEmpty, !ext.contains("/"), !ext.contains(".") else { throw bad }
            return .ext(ext)
        case .mime:
            let parts = lower.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !parts[0].contains("*") else { throw bad }
            return .mime(lower)
        case .size:
            return .size(try comparison(value, key: key, base: base, order: { $0 <= $1 }, parseSize))
        case .folder:
            let components = Array(value.utf8).split(separator: UInt8(ascii: "/")).map(Array.init)
            guard !components.contains(Array("..".utf8)) else { throw bad }
            return .folder(components.filter { $0 != Array(".".utf8) })
        case .name:
            do {
                return .name(try Glob(value))
            } catch {
                throw bad
            }
        }
    }

    /// Parses `V`, `=V`, `>V`, `>=V`, `<V`, `<=V`, `A..B`, `A..` or `..B`, pointing errors
    /// at the offending bound.
    private static func comparison<Bound>(
        _ value: String, key: FilterKey, base: Int, order: (Bound, Bound) -> Bool, _ parse: (Substring) -> Bound?
    ) throws(FilterError) -> Comparison<Bound> {
        func bound(_ text: Substring, offset: Int) throws(FilterError) -> Bound {
            guard let parsed = parse(text) else {
                throw .badValue(key: key, value: String(text), at: base + offset, expected: key.expectation)
            }
            return parsed
        }
        let operators: [(String, (Bound) -> Comparison<Bound>)] = [
            (">=", Comparison.greaterOrEqual), ("<=", Comparison.lessOrEqual), (">", Comparison.greater),
            ("<", Comparison.less), ("=", Comparison.equal),
        ]
        for (symbol, make) in operators where value.hasPrefix(symbol) {
            return make(try bound(value.dropFirst(symbol.count), offset: symbol.count))
        }
        let chars = Array(value)
        guard let dots = chars.indices.dropLast().first(where: { chars[$0] == "." && chars[$0 + 1] == "." }) else {
            return .equal(try bound(value[...], offset: 0))
        }
        let leftText = Substring(String(chars[..<dots]))
        let rightText = Substring(String(chars[(dots + 2)...]))
        let rightOffset = dots + 2
        if leftText.isEmpty && rightText.isEmpty {
            throw .badValue(key: key, value: value, at: base, expected: key.expectation)
        }
        let left = leftText.isEmpty ? nil : try bound(leftText, offset: 0)
        let right = rightText.isEmpty ? nil : try bound(rightText, offset: rightOffset)
        if let left, let right, !order(left, right) {
            throw .badValue(key: key, value: value, at: base, expected: .ascendingRange)
        }
        return .between(left, right)
    }

    /// A non-negative whole number of at most 18 digits.
    static func parseCount(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int64(text)
    }

    /// A non-negative decimal with at most 6 decimals, exact in millionths.
    static func parseDecimal(_ text: Substring) -> Decimal1e6? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parseCount(parts[0]), whole <= 1_000_000_000 else { return nil }
        var micros = whole * 1_000_000
        var decimals = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 6, let digits = parseCount(fraction) else { return nil }
            decimals = fraction.count
            var scale: Int64 = 1
            for _ in fraction.count..<6 { scale *= 10 }
            micros += digits * scale
        }
        return Decimal1e6(micros: micros, decimals: decimals)
    }

    /// A byte count: a decimal number and an optional unit (B, KB/MB/GB/TB powers of 1000,
    /// KiB/MiB/GiB/TiB powers of 1024; case-insensitive), rounded down to whole bytes.
    static func parseSize(_ text: Substring) -> Int64? {
        let number = text.prefix(while: { $0.isASCIIDigit || $0 == "." })
        let unit = text.dropFirst(number.count).lowercased()
        let multipliers: [String: Int64] = [
            "": 1, "b": 1, "kb": 1_000, "mb": 1_000_000, "gb": 1_000_000_000, "tb": 1_000_000_000_000,
            "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
        ]
        guard let multiplier = multipliers[unit], let amount = parseDecimal(number) else { return nil }
        let whole = amount.micros / 1_000_000
        let fraction = amount.micros % 1_000_000
        let (wholeBytes, overflow) = whole.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        // fraction < 10^6 and multiplier <= 2^40, so this product fits in 64 bits.
        let (total, overflow2) = wholeBytes.addingReportingOverflow(fraction * multiplier / 1_000_000)
        return overflow2 ? nil : total
    }

    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` with a real month and day.
    static func parseDate(_ text: Substring) -> DatePeriod? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4, let year = parseCount(parts[0]), year >= 1 else { return nil }
        var period = DatePeriod(year: Int(year))
        if parts.count >= 2 {
            guard parts[1].count == 2, let month = parseCount(parts[1]), (1...12).contains(month) else { return nil }
            period.month = Int(month)
        }
        if parts.count == 3, let month = period.month {
            guard parts[2].count == 2, let day = parseCount(parts[2]),
                day >= 1, day <= Int64(daysIn(month: month, year: period.year))
            else { return nil }
            period.day = Int(day)
        }
        return period
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0-9 (not any Unicode digit).
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
