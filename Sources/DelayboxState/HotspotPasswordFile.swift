import DelayboxNetwork

#if canImport(Glibc)
    import Glibc
#endif

/// The box's own hotspot password (`hotspot-password` beside the state file): 16 random
/// digits made at the box's first start, kept readable by the service's user alone (mode
/// 0600), changed only from the logged-in page or at the box. Derived from nothing another
/// user, another card or a neighbour can read: a card cloned from another box's makes its
/// own at its own first start, since the file lives with the settings, not in the image.
public struct HotspotPasswordFile: Sendable {
    public let path: String
    /// Digits in a made password: 53 bits, four groups of four to say aloud.
    public static let digits = 16

    public init(path: String) { self.path = path }

    /// The password kept, or nil when there is none (no file, or not a Wi-Fi password).
    public func read() -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        var line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while line.last?.isNewline == true { line.removeLast() }
        return line.isEmpty || WiFiCredentials.passwordProblem(line) != nil ? nil : line
    }

    /// The password kept, made and kept first when there is none; throws when it cannot be
    /// kept (the caller plays on with `made` for this run and says why).
    public func readOrMake() throws -> String {
        if let kept = read() { return kept }
        let made = Self.make()
        try store(made)
        return made
    }

    /// Keeps `password` (8-63 printable ASCII characters) atomically and durably, mode 0600.
    public func store(_ password: String) throws {
        guard !password.isEmpty, WiFiCredentials.passwordProblem(password) == nil else {
            throw SettingsFileError("not a Wi-Fi password", EINVAL)
        }
        try DurableFile.write(Array((password + "\n").utf8), to: path, mode: 0o600)
    }

    /// A new password: `digits` decimal digits from the system's secure generator
    /// (getrandom(2) on Linux).
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }
}
