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
