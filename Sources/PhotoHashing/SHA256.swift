import CCrypto

/// A streaming SHA-256 computed by libcrypto (with the CPU's SHA instructions where there
/// are any), for content hashes and derived names.
///
/// Feed any number of byte chunks with `update`, then call `finalize` (which does not
/// consume: more bytes may follow). A value type: a copy hashes on independently.
public struct SHA256: Sendable {
    /// The digest length in bytes.
    public static let digestSize = 32

    private var context: DigestContext

    /// A fresh hash over no bytes.
    public init() {
        context = DigestContext()
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        context.update(base, bytes.count)
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything added so far.
    public func finalize() -> [UInt8] {
        context.copy().finish()
    }

    /// The SHA-256 of `bytes` in one call.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: digestSize)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only when it cannot allocate its context.
        precondition(ok == 1 && length == UInt32(digestSize), "libcrypto could not compute SHA-256")
        return digest
    }

    /// Lowercase hex of `bytes`, two digits per byte.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (i, byte) in bytes.enumerated() {
                out[2 * i] = digits[Int(byte >> 4)]
                out[2 * i + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }
}

/// One libcrypto digest context, owned: freed with the object.
private final class DigestContext: @unchecked Sendable {
    // @unchecked: the context is only reached through a `SHA256` value, which copies it
    // before mutating it whenever it is shared.
    private let context: OpaquePointer

    init() {
        // Allocation failure of a few hundred bytes is not a state to recover from.
        guard let made = EVP_MD_CTX_new(), EVP_DigestInit_ex(made, EVP_sha256(), nil) == 1 else {
            preconditionFailure("libcrypto could not start SHA-256")
        }
        context = made
    }

    private init(copying other: OpaquePointer) {
        guard let made = EVP_MD_CTX_new(), EVP_MD_CTX_copy_ex(made, other) == 1 else {
            preconditionFailure("libcrypto could not copy a SHA-256 state")
        }
        context = made
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    func copy() -> DigestContext { DigestContext(copying: context) }

    func update(_ bytes: UnsafeRawPointer, _ count: Int) {
        precondition(EVP_DigestUpdate(context, bytes, count) == 1, "libcrypto refused SHA-256 input")
    }

    /// Finishes this context (use a copy when the hash goes on).
    func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: SHA256.digestSize)
        var length: UInt32 = 0
        let ok = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        precondition(ok == 1 && length == UInt32(SHA256.digestSize), "libcrypto could not finish SHA-256")
        return digest
    }
}
