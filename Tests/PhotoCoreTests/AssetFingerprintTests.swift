import PhotoCore
import Testing

@Suite struct AssetFingerprintTests {
    @Test func fingerprintGivesTheAssetID() throws {
        let fingerprint = AssetFingerprint(of: Array("abc".utf8))
        #expect(fingerprint.hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(fingerprint.assetID.rawValue == "ba7816bf8f01")
        #expect(AssetFingerprint(hex: fingerprint.hex.uppercased()) == fingerprint)
        #expect(AssetFingerprint(hex: "ba7816bf") == nil)
        #expect(AssetFingerprint(hex: String(repeating: "g", count: 64)) == nil)
        #expect(AssetFingerprint(digest: [1, 2, 3]) == nil)
        // One changed byte, an unrelated id.
        #expect(AssetFingerprint(of: Array("abd".utf8)).assetID != fingerprint.assetID)
    }
}
