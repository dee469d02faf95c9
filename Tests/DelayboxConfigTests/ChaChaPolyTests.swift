import Testing

@testable import DelayboxConfig

/// The cipher a backup's passwords are sealed with, against RFC 8439's own test vectors
/// (2.4.2 the cipher, 2.5.2 Poly1305, 2.8.2 the AEAD), and a tag that refuses any change.
@Suite(.timeLimit(.minutes(10))) struct ChaChaPolyTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).filter { $0 != UInt8(ascii: " ") }
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)!
        }
    }

    static let sunscreen = Array(
        "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
            .utf8)

    @Test func theCipherMatchesTheRFC() {
        let stream = ChaChaPoly.chacha20(
            Self.sunscreen, key: Array(0..<32), nonce: Self.bytes("000000000000004a00000000"), counter: 1)
        #expect(
            stream
                == Self.bytes(
                    "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab77937365af90bbf74a35be6b40b8eedf2785e42874d"
                ))
    }

    @Test func poly1305MatchesTheRFC() {
        let key = Self.bytes("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")
        #expect(
            ChaChaPoly.poly1305(Array("Cryptographic Forum Research Group".utf8), key: key)
                == Self.bytes("a8061dc1305136c6c22b8baf0c0127a9"))
    }

    /// Sums at and beyond the prime 2^130 - 5 (RFC 8439 A.3's kind), whose last reduction a
    /// careless carry gets wrong; tags as OpenSSL gives them.
    static let primeEdges: [PrimeEdge] = [
        PrimeEdge(
            key: "02000000000000000000000000000000ffffffffffffffffffffffffffffffff",
            message: "ffffffffffffffffffffffffffffffff",
            tag: "02000000000000000000000000000000"),
        PrimeEdge(
            key: "0100000000000000000000000000000000000000000000000000000000000000",
            message: "fffffffffffffffffffffffffffffffff0ffffffffffffffffffffffffffffff11000000000000000000000000000000",
            tag: "05000000000000000000000000000000"),
        PrimeEdge(
            key: "0200000000000000000000000000000000000000000000000000000000000000",
            message: "fdffffffffffffffffffffffffffffff",
            tag: "faffffffffffffffffffffffffffffff"),
        PrimeEdge(
            key: "0100000000000000000000000000000000000000000000000000000000000000",
            message: "fffffffffffffffffffffffffffffffffbfefefefefefefefefefefefefefefe01010101010101010101010101010101",
            tag: "00000000000000000000000000000000"),
        PrimeEdge(
            key: "0100000000000000000000000000000000000000000000000000000000000000",
            message: "fbffffffffffffffffffffffffffffff",
            tag: "fbffffffffffffffffffffffffffffff"),
    ]

    struct PrimeEdge: Sendable {
        let key: String, message: String, tag: String
    }

    @Test(arguments: primeEdges)
    func poly1305ReducesAtThePrime(edge: PrimeEdge) {
        #expect(ChaChaPoly.poly1305(Self.bytes(edge.message), key: Self.bytes(edge.key)) == Self.bytes(edge.tag))
    }

    @Test func theSealMatchesTheRFCAndRefusesAnyChange() {
        let key = Array(UInt8(0x80)...UInt8(0x9f))
        let nonce = Self.bytes("070000004041424344454647")
        let associated = Self.bytes("50515253c0c1c2c3c4c5c6c7")
        let sealed = ChaChaPoly.seal(Self.sunscreen, key: key, nonce: nonce, associated: associated)
        #expect(
            sealed
                == Self.bytes(
                    "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b61161ae10b594f09e26a7e902ecbd0600691"
                ))
        #expect(ChaChaPoly.open(sealed, key: key, nonce: nonce, associated: associated) == Self.sunscreen)
        for index in [0, 57, sealed.count - 1] {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(ChaChaPoly.open(changed, key: key, nonce: nonce, associated: associated) == nil, "byte \(index)")
        }
        var otherKey = key
        otherKey[31] ^= 0x80
        #expect(ChaChaPoly.open(sealed, key: otherKey, nonce: nonce, associated: associated) == nil)
        #expect(ChaChaPoly.open(sealed, key: key, nonce: nonce, associated: []) == nil)
        #expect(ChaChaPoly.open(Array(sealed.prefix(15)), key: key, nonce: nonce) == nil)
    }
}
