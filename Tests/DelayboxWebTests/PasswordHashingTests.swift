import DelayboxMicroHTTPD
import DelayboxState
import Foundation
import Testing

/// The web password through the real libcrypt and the real file.
@Suite(.timeLimit(.minutes(10))) struct PasswordHashingTests {
    @Test func aPasswordIsHashedWithYescryptAndCheckedAgainstItsHash() throws {
        let hash = try #require(PasswordHashing.hash("correct horse"))
        #expect(hash.hasPrefix("$y$"), "\(hash)")
        #expect(PasswordHashing.matches("correct horse", hash: hash))
        #expect(!PasswordHashing.matches("correct hors", hash: hash))
        #expect(!PasswordHashing.matches("correct horse", hash: "$y$garbage"))
        #expect(!PasswordHashing.matches("", hash: ""))
        #expect(!PasswordHashing.matches("correct horse\u{0}anything", hash: hash), "C would stop at the NUL")
        // A fresh salt each time: the same password, two hashes.
        #expect(PasswordHashing.hash("correct horse") != hash)
    }

    @Test func theHashIsKeptForTheBoxsUserAloneAndNothingElseIsTakenForOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("password-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = PasswordFile(path: directory.appendingPathComponent("web-password").path)
        #expect(file.read() == nil)
        let hash = try #require(PasswordHashing.hash("correct horse"))
        try file.store(hash)
        #expect(file.read() == hash)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(throws: (any Error).self) { try file.store("plain text password") }
        try "not a hash\n".write(toFile: file.path, atomically: true, encoding: .utf8)
        #expect(file.read() == nil)
    }

    /// libpwquality with cracklib's dictionary (deploy/setup-host.sh installs both; a box
    /// without them checks the length only): common passwords are refused with its reason,
    /// a few unrelated words pass (issue 56).
    @Test func aPasswordADictionaryGuessesIsWeak() {
        for weak in ["password1", "qwertyuiop", "12345678", "delaybox", "abcdefgh"] {
            #expect(PasswordHashing.weakness(weak) != nil, "\(weak)")
        }
        for good in ["correct horse battery", "chosen again twice", "battery staple tuesday"] {
            #expect(PasswordHashing.weakness(good) == nil, "\(good): \(PasswordHashing.weakness(good) ?? "")")
        }
    }

    @Test func randomBytesDiffer() {
        let first = PasswordHashing.randomBytes(32), second = PasswordHashing.randomBytes(32)
        #expect(first.count == 32 && first != second)
    }
}
