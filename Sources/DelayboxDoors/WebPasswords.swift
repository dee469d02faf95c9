import DelayboxMicroHTTPD
import DelayboxPlatform
import DelayboxState
import DelayboxWeb

#if canImport(Glibc)
    import Glibc
#endif

/// The web page's password as the box keeps it: its yescrypt hash (libcrypt) in
/// `web-password` beside the state file (`PasswordFile`).
public struct WebPasswords: PasswordStore {
    public let file: PasswordFile

    public init(path: String) { file = PasswordFile(path: path) }

    public func storedHash() -> String? { file.read() }
    public func makeHash(_ password: String) -> String? { PasswordHashing.hash(password) }
    public func matches(_ password: String, hash: String) -> Bool { PasswordHashing.matches(password, hash: hash) }

    public func store(hash: String) -> String? {
        do {
            try file.store(hash)
            return nil
        } catch {
            return "\(error)"
        }
    }

    public func remove() -> String? {
        unlink(file.path) == 0 || errno == ENOENT ? nil : ErrorText.system(errno)
    }

    public func weakness(of password: String) -> String? { PasswordHashing.weakness(password) }
}
