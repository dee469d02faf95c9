import CWeb
#if canImport(Glibc)
import Glibc
#endif

/// Passwords hashed as /etc/shadow hashes them: libcrypt's yescrypt with a fresh salt;
/// checked in constant time.
public enum PasswordHashing {
    /// A new hash of `password`; nil if libcrypt failed.
    public static func hash(_ password: String) -> String? {
        var out = [CChar](repeating: 0, count: 256)
        guard dbx_web_hash_password(password, &out, out.count) == 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one `hash` was made from.
    public static func matches(_ password: String, hash: String) -> Bool {
        dbx_web_check_password(password, hash) == 1
    }

    /// `count` bytes from the kernel's secure random source.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        // getrandom(2) does not fail once the kernel's pool is ready (at boot, before us).
        guard bytes.withUnsafeMutableBytes({ dbx_web_random($0.baseAddress, $0.count) }) == 0 else {
            fatalError("getrandom failed: \(String(cString: strerror(errno)))")
        }
        return bytes
    }
}
