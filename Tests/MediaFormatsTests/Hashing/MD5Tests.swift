import Testing

@testable import MediaFormats

/// MD5 against the RFC 1321 test suite, plus lengths around the padding boundary checked
/// against values computed by coreutils' md5sum.
@Suite struct MD5Tests {
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfc1321Vectors(input: String, digest: String) {
        #expect(hex(MD5.hash(Array(input.utf8))) == digest)
    }

    @Test(arguments: [
        (55, "ef1772b6dff9a122358552954ad0df65"), (56, "3b0c8ac703f828b04c6c197006d17218"),
        (63, "b06521f39153d618550606be297466d5"), (64, "014842d480b571495a4a0363793f7367"),
    ])
    func paddingBoundaries(count: Int, digest: String) {
        #expect(hex(MD5.hash([UInt8](repeating: UInt8(ascii: "a"), count: count))) == digest)
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
