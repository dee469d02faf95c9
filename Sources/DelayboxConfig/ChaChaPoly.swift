/// ChaCha20-Poly1305 (RFC 8439): the authenticated cipher a backup's passwords are sealed
/// with (`SealedPasswords`). Pure Swift — no C crypto library on the box for one small
/// sealed value a year — and checked against the RFC's own vectors (ChaChaPolyTests). A
/// 256-bit key, a 96-bit nonce never used twice with one key (each backup derives a key of
/// its own from a fresh salt), a 128-bit tag over the associated data and the ciphertext.
public enum ChaChaPoly {
    public static let keyBytes = 32
    public static let nonceBytes = 12
    public static let tagBytes = 16

    /// `plaintext` sealed: the ciphertext followed by its tag.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8] = []) -> [UInt8] {
        precondition(key.count == keyBytes && nonce.count == nonceBytes, "ChaCha20-Poly1305: key or nonce size")
        let ciphertext = chacha20(plaintext, key: key, nonce: nonce, counter: 1)
        return ciphertext + tag(ciphertext, key: key, nonce: nonce, associated: associated)
    }

    /// The plaintext of `sealed` (ciphertext and tag); nil when the tag does not match — a
    /// wrong key, or a byte changed anywhere.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8] = []) -> [UInt8]? {
        guard key.count == keyBytes, nonce.count == nonceBytes, sealed.count >= tagBytes else { return nil }
        let ciphertext = Array(sealed.dropLast(tagBytes))
        let expected = tag(ciphertext, key: key, nonce: nonce, associated: associated)
        // Compared in time independent of where they differ.
        guard zip(expected, sealed.suffix(tagBytes)).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        return chacha20(ciphertext, key: key, nonce: nonce, counter: 1)
    }

    /// The AEAD's tag: Poly1305 keyed by block 0's first 32 bytes over the associated data,
    /// the ciphertext (each padded to 16 bytes) and both lengths.
    private static func tag(_ ciphertext: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8]) -> [UInt8] {
        let oneTimeKey = Array(block(key: key, nonce: nonce, counter: 0).prefix(32))
        func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8](repeating: 0, count: (16 - bytes.count % 16) % 16) }
        let lengths =
            littleEndian(UInt64(associated.count), bytes: 8) + littleEndian(UInt64(ciphertext.count), bytes: 8)
        return poly1305(padded(associated) + padded(ciphertext) + lengths, key: oneTimeKey)
    }

    /// `input` XORed with ChaCha20's key stream from block `counter` on.
    static func chacha20(_ input: [UInt8], key: [UInt8], nonce: [UInt8], counter: UInt32) -> [UInt8] {
        var output = input
        var blockCounter = counter
        for start in stride(from: 0, to: input.count, by: 64) {
            let stream = block(key: key, nonce: nonce, counter: blockCounter)
            for index in start..<min(start + 64, input.count) { output[index] ^= stream[index - start] }
            blockCounter &+= 1
        }
        return output
    }

    /// One 64-byte block of ChaCha20's key stream.
    static func block(key: [UInt8], nonce: [UInt8], counter: UInt32) -> [UInt8] {
        var initial: [UInt32] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]
        initial += (0..<8).map { word(key, at: $0 * 4) }
        initial.append(counter)
        initial += (0..<3).map { word(nonce, at: $0 * 4) }
        var state = initial
        func quarter(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
            state[a] &+= state[b]
            state[d] = (state[d] ^ state[a]).rotatedLeft(16)
            state[c] &+= state[d]
            state[b] = (state[b] ^ state[c]).rotatedLeft(12)
            state[a] &+= state[b]
            state[d] = (state[d] ^ state[a]).rotatedLeft(8)
            state[c] &+= state[d]
            state[b] = (state[b] ^ state[c]).rotatedLeft(7)
        }
        for _ in 0..<10 {
            quarter(0, 4, 8, 12)
            quarter(1, 5, 9, 13)
            quarter(2, 6, 10, 14)
            quarter(3, 7, 11, 15)
            quarter(0, 5, 10, 15)
            quarter(1, 6, 11, 12)
            quarter(2, 7, 8, 13)
            quarter(3, 4, 9, 14)
        }
        return (0..<16).flatMap { littleEndian(UInt64(state[$0] &+ initial[$0]), bytes: 4) }
    }

    /// Poly1305's 16-byte tag of `message` under the one-time `key` (r, then s), in 26-bit
    /// limbs: every product fits 64 bits.
    static func poly1305(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        let mask: UInt64 = 0x3ff_ffff
        let r = [
            UInt64(word(key, at: 0)) & 0x3ff_ffff, UInt64(word(key, at: 3) >> 2) & 0x3ff_ff03,
            UInt64(word(key, at: 6) >> 4) & 0x3ff_c0ff, UInt64(word(key, at: 9) >> 6) & 0x3f0_3fff,
            UInt64(word(key, at: 12) >> 8) & 0x00f_ffff,
        ]
        let s = r.map { $0 * 5 }
        var h: [UInt64] = [0, 0, 0, 0, 0]
        for start in stride(from: 0, to: message.count, by: 16) {
            var chunk = Array(message[start..<min(start + 16, message.count)])
            let full = chunk.count == 16
            if !full { chunk += [1] + [UInt8](repeating: 0, count: 15 - chunk.count) }
            h[0] += UInt64(word(chunk, at: 0)) & mask
            h[1] += UInt64(word(chunk, at: 3) >> 2) & mask
            h[2] += UInt64(word(chunk, at: 6) >> 4) & mask
            h[3] += UInt64(word(chunk, at: 9) >> 6) & mask
            h[4] += UInt64(word(chunk, at: 12) >> 8) | (full ? 1 << 24 : 0)
            var d = [UInt64](repeating: 0, count: 5)
            for i in 0..<5 {
                for j in 0..<5 { d[i] += h[j] * (j <= i ? r[i - j] : s[i - j + 5]) }
            }
            var carry: UInt64 = 0
            for i in 0..<5 {
                d[i] += carry
                carry = d[i] >> 26
                h[i] = d[i] & mask
            }
            h[0] += carry * 5
            h[1] += h[0] >> 26
            h[0] &= mask
        }
        // Fully carried, then h - p chosen when it is not negative.
        var carry: UInt64 = 0
        for i in 1..<5 {
            h[i] += carry
            carry = h[i] >> 26
            h[i] &= mask
        }
        h[0] += carry * 5
        h[1] += h[0] >> 26
        h[0] &= mask
        var g = [UInt64](repeating: 0, count: 5)
        carry = 5
        for i in 0..<5 {
            g[i] = h[i] &+ carry
            carry = g[i] >> 26
            g[i] &= mask
        }
        g[4] = g[4] &+ (carry << 26) &- (1 << 26)
        let useG: UInt64 = (g[4] >> 63) &- 1
        for i in 0..<5 { h[i] = (h[i] & ~useG) | (g[i] & useG & mask) }
        let words: [UInt64] = [
            (h[0] | h[1] << 26) & 0xffff_ffff, (h[1] >> 6 | h[2] << 20) & 0xffff_ffff,
            (h[2] >> 12 | h[3] << 14) & 0xffff_ffff, (h[3] >> 18 | h[4] << 8) & 0xffff_ffff,
        ]
        var sum: UInt64 = 0
        return (0..<4).flatMap { i in
            sum = words[i] + UInt64(word(key, at: 16 + i * 4)) + (sum >> 32)
            return littleEndian(sum & 0xffff_ffff, bytes: 4)
        }
    }

    /// The little-endian 32-bit word at `offset` of `bytes`.
    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    private static func littleEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

extension UInt32 {
    fileprivate func rotatedLeft(_ count: UInt32) -> UInt32 { self << count | self >> (32 - count) }
}
