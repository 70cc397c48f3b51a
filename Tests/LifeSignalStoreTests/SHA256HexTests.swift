import LifeSignalStore
import Testing

@Suite("SHA-256 hex")
struct SHA256HexTests {
    /// FIPS 180-2's examples, and text beyond ASCII (hashed as UTF-8): stored timeline and token
    /// hashes depend on these exact bytes.
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        ("é", "4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c"),
    ])
    func knownAnswers(text: String, hex: String) {
        #expect(SHA256Hex.of(text) == hex)
    }
}
