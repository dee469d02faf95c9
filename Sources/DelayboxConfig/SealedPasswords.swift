import DelayboxJSON
import FoundationEssentials

/// A backup's passwords (issue 70), taken only when the owner asks and then sealed with a
/// passphrase of theirs: the saved config's secrets (`mqtt.password`, the hotspot's) and the
/// page password's hash. The key is yescrypt's hash of the passphrase under a fresh salt
/// (`setting`, kept beside it); the seal ChaCha20-Poly1305, whose tag also covers the setting
/// — so a wrong passphrase, or any byte changed, opens nothing.
public struct SealedPasswords: Sendable, Equatable, Codable {
    /// How the key is made from the passphrase: a yescrypt setting (`$y$j9T$SALT$`).
    public var setting: String
    /// The seal's nonce (base64, 12 bytes).
    public var nonce: String
    /// The passwords' JSON sealed: ciphertext and tag (base64).
    public var sealed: String

    /// A key made from a passphrase under a setting (nil: a fresh one), with the setting used;
    /// nil when it cannot be made. The box's is `PasswordHashing.key(from:setting:)`.
    public typealias Derivation =
        @Sendable (_ passphrase: String, _ setting: String?) -> (
            setting: String, key: [UInt8]
        )?

    /// The passwords themselves.
    public struct Contents: Sendable, Equatable, Codable {
        /// The saved config's secrets by their dotted keys (`mqtt.password`).
        public var config: [String: String]
        /// The page password's hash (`$y$…`); nil: the box had none.
        public var page: String?

        public init(config: [String: String], page: String?) { (self.config, self.page) = (config, page) }
    }

    /// The one cost a backup's key is made with (libcrypt's default, the page password's): a
    /// stranger's file naming another would have the box spend what it says — gigabytes.
    static let settingPrefix = "$y$j9T$"

    /// A passphrase shorter than this seals nothing: the file may travel by e-mail.
    public static let shortestPassphrase = 8

    /// `contents` sealed under `passphrase` with a fresh salt and `nonce` (12 random bytes);
    /// nil when no key could be made.
    public static func seal(
        _ contents: Contents, passphrase: String, nonce: [UInt8], derive: Derivation
    ) -> SealedPasswords? {
        guard let (setting, key) = derive(passphrase, nil), setting.hasPrefix(settingPrefix) else { return nil }
        let plain = Array(JSONText.pretty(JSONValue(encoding: contents)).utf8)
        let sealed = ChaChaPoly.seal(plain, key: key, nonce: nonce, associated: Array(setting.utf8))
        return SealedPasswords(
            setting: setting, nonce: Data(nonce).base64EncodedString(), sealed: Data(sealed).base64EncodedString())
    }

    /// The passwords inside, or why not: a wrong passphrase and a changed file read alike.
    public func open(passphrase: String, derive: Derivation) -> Result<Contents, BackupProblem> {
        let refused = BackupProblem("the passphrase does not open its passwords (or the file was changed)")
        guard Self.isSetting(setting), let nonce = Data(base64Encoded: nonce), nonce.count == ChaChaPoly.nonceBytes,
            let sealed = Data(base64Encoded: sealed), sealed.count <= BoxBackup.largestBytes
        else { return .failure(BackupProblem("its passwords are not sealed as a backup's are")) }
        guard let (_, key) = derive(passphrase, setting),
            let plain = ChaChaPoly.open(
                [UInt8](sealed), key: key, nonce: [UInt8](nonce), associated: Array(setting.utf8)),
            let contents = try? JSONDecoder().decode(Contents.self, from: Data(plain))
        else { return .failure(refused) }
        return .success(contents)
    }

    /// Whether `hash` (`$y$j9T$SALT$HASH`) was made at the one cost this box makes.
    public static func isSetting(ofHash hash: String) -> Bool {
        guard let cut = hash.lastIndex(of: "$") else { return false }
        return isSetting(String(hash[...cut]))
    }

    /// A setting of the one cost this box makes, with a salt of crypt's characters.
    static func isSetting(_ text: String) -> Bool {
        guard text.hasPrefix(settingPrefix), text.hasSuffix("$") else { return false }
        let salt = text.dropFirst(settingPrefix.count).dropLast()
        return (1...64).contains(salt.count) && salt.utf8.allSatisfy(CryptText.isCharacter)
    }
}
