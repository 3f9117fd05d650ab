/// The command line as the kernel passed it: bytes, which need not be UTF-8 (file names
/// are bytes). Swift's `CommandLine.arguments` replaces bytes that are not UTF-8 with
/// U+FFFD, which loses the name; here each such byte becomes one scalar of a Private Use
/// Area block (U+10FE80 to U+10FEFF), which `bytes(_:)` turns back into the byte, so an
/// argument reaches the catalog as the bytes it was. (A real argument with those private
/// scalars in it is read as the bytes they stand for.)
enum RawArguments {
    private static let base: UInt32 = 0x10_FE00

    /// The arguments after the program name, losslessly.
    static func current() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            var bytes: [UInt8] = []
            var cursor = pointer
            while cursor.pointee != 0 {
                bytes.append(UInt8(bitPattern: cursor.pointee))
                cursor += 1
            }
            return decode(bytes)
        }
    }

    /// The bytes as a string: UTF-8 as it is, every other byte as its private scalar.
    static func decode(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = utf8Scalar(bytes, at: index) {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(bytes[index]))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes an argument stands for (the inverse of `decode`).
    static func bytes(_ argument: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in argument.unicodeScalars {
            if scalar.value >= base + 0x80 && scalar.value <= base + 0xFF {
                bytes.append(UInt8(scalar.value - base))
            } else {
                bytes += Array(String(scalar).utf8)
            }
        }
        return bytes
    }

    /// The well-formed UTF-8 scalar starting at `index` and its length, or nil.
    private static func utf8Scalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        var decoder = UTF8()
        var iterator = bytes[index..<(index + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), String(scalar).utf8.count == length else { return nil }
        // A private scalar in the input would read back as a raw byte: keep it escaped.
        if scalar.value >= base + 0x80 && scalar.value <= base + 0xFF { return nil }
        return (scalar, length)
    }
}
