/// The characters crypt(3) writes in a salt and a hash: `.`, `/`, digits and ASCII letters.
/// One test for the page password's file and a backup's sealed setting.
public enum CryptText {
    /// Whether `byte` is one of crypt's 64 characters (`$`, the separator, is not).
    public static func isCharacter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
