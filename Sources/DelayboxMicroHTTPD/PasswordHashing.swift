import CWeb
import DelayboxSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Passwords hashed as /etc/shadow hashes them: libcrypt's yescrypt with a fresh salt;
/// checked in constant time. One at a time: yescrypt takes megabytes and tens of
/// milliseconds per hash on purpose, so logins arriving together (16 connections at once)
/// queue instead of taking a Pi Zero's memory.
public enum PasswordHashing {
    private static let oneAtATime = Mutex(())

    /// A new hash of `password`; nil if libcrypt failed.
    public static func hash(_ password: String) -> String? {
        var out = [CChar](repeating: 0, count: 256)
        guard oneAtATime.withLock({ _ in dbx_web_hash_password(password, &out, out.count) }) == 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A 256-bit key from `passphrase` by yescrypt under `setting` (method, cost and salt,
    /// `$y$j9T$SALT$` with its trailing `$`), or a fresh setting when nil — the setting to keep
    /// beside what the key seals, and the key (the hash's last part, crypt's base64 read back
    /// into bytes); nil if libcrypt refused the setting.
    public static func key(from passphrase: String, setting: String?) -> (setting: String, key: [UInt8])? {
        guard !passphrase.utf8.contains(0) else { return nil }
        var out = [CChar](repeating: 0, count: 256)
        let made = oneAtATime.withLock { _ in
            if let setting {
                dbx_web_crypt(passphrase, setting, &out, out.count)
            } else {
                dbx_web_hash_password(passphrase, &out, out.count)
            }
        }
        guard made == 0 else { return nil }
        let hash = String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let cut = hash.lastIndex(of: "$") else { return nil }
        let alphabet = Array("./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var (key, bits, pending) = ([UInt8](), 0, UInt32(0))
        for character in hash[hash.index(after: cut)...].utf8 {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            pending |= UInt32(value) << bits
            bits += 6
            if bits >= 8 {
                key.append(UInt8(truncatingIfNeeded: pending))
                (pending, bits) = (pending >> 8, bits - 8)
            }
        }
        guard key.count >= 32 else { return nil }
        return (String(hash[...cut]), Array(key.prefix(32)))
    }

    /// Whether `password` is the one `hash` was made from (a password holding a NUL is
    /// not: C would read only what comes before it).
    public static func matches(_ password: String, hash: String) -> Bool {
        guard !password.utf8.contains(0) else { return false }
        return oneAtATime.withLock { _ in dbx_web_check_password(password, hash) } == 1
    }

    /// Why libpwquality finds `password` weak (cracklib's dictionary, the system's
    /// pwquality.conf), or nil: acceptable, or no libpwquality on this box.
    public static func weakness(_ password: String) -> String? {
        var reason = [CChar](repeating: 0, count: 256)
        guard dbx_web_password_quality(password, &reason, reason.count) == 0 else { return nil }
        return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `count` bytes from the kernel's secure random source.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        // getrandom(2) does not fail once the kernel's pool is ready (at boot, before us).
        guard bytes.withUnsafeMutableBytes({ dbx_web_random($0.baseAddress, $0.count) }) == 0 else {
            fatalError("getrandom failed: \(Errno.current)")
        }
        return bytes
    }
}
