import DelayboxConfig
import DelayboxConsole
import DelayboxFiles
import DelayboxMicroHTTPD
import DelayboxState
import DelayboxTestSupport
import Foundation
import Testing

/// A backup's files on a box's directory, as the saver's thread takes and restores them:
/// no password leaves the box in a backup, a restore keeps the box's own, a file the box's
/// board would refuse changes nothing, and an undo puts the choice back but not the volume.
@Suite(.timeLimit(.minutes(10))) struct BoxBackupFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A box's directory: its board (the simulated host), its saved config, and the files.
    func box(_ name: String, saved: String) throws -> BoxBackupFiles {
        let directory = try ExternalTool.temporaryDirectory(name)
        let board = directory.appendingPathComponent("board.yaml")
        try "extends: \(Self.root.appendingPathComponent("board-configs/simulated-host.yaml").path)\n".write(
            to: board, atomically: true, encoding: .utf8)
        let config = directory.appendingPathComponent("config.yaml")
        try saved.write(to: config, atomically: true, encoding: .utf8)
        let path = { (file: String) in directory.appendingPathComponent(file).path }
        return BoxBackupFiles(
            paths: .init(
                state: path("state.json"), consoleConfig: config.path, dailyUpdates: path("daily-updates"),
                journalDirectory: path("journal"), board: board.path, site: nil, webPassword: path("web-password")),
            box: name, release: "1.0", sealing: Self.sealing, nowUnixMs: { 1_796_040_584_000 })
    }

    /// The box's own sealing: yescrypt by libcrypt, the kernel's random bytes.
    static let sealing = BoxBackupFiles.Sealing(
        derive: { PasswordHashing.key(from: $0, setting: $1) }, random: PasswordHashing.randomBytes)

    static let mqtt = """
        mqtt:
          broker: "mqtt://127.0.0.1:1883"
          username: "screen1"
          password: "%@"
        channels:
          - name: "Club Radio"
            url: "https://radio.example/club.mp3"

        """

    func read(_ files: BoxBackupFiles, _ name: String) -> String {
        let directory = URL(fileURLWithPath: files.paths.state).deletingLastPathComponent()
        return (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    @Test func noPasswordLeavesTheBoxAndTheRestoringBoxKeepsItsOwn() throws {
        let first = try box("backup-a", saved: String(format: Self.mqtt, "first-secret"))
        let settings = Settings(delay: .milliseconds(7_000), volume: 40, channel: "Club Radio", presets: [3: 4_500])
        let backup = try first.take(settings)
        #expect(!backup.text.contains("first-secret") && backup.config.contains("screen1"), "\(backup.text)")
        #expect(backup.config.contains("Club Radio"))

        let second = try box("backup-b", saved: String(format: Self.mqtt, "second-secret"))
        let outcome = second.perform(
            .restore(text: backup.text), current: Settings(delay: .milliseconds(2_000), volume: 50))
        guard case .restored(let restored, let undo, let changes, let notes) = outcome else {
            Issue.record("not restored: \(outcome)")
            return
        }
        #expect(!undo && notes.isEmpty && restored.settings == settings)
        #expect(changes.first == "delay 2 s → 7 s", "\(changes)")
        #expect(read(second, "config.yaml").contains("second-secret"), "\(read(second, "config.yaml"))")
        let state = try Settings.decode(Data(read(second, "state.json").utf8), maxDelay: .milliseconds(600_000)).get()
        #expect(state == settings)

        // A new card has no password of its own to keep: the restore says the broker will refuse it.
        let fresh = try box("backup-c", saved: "")
        guard case .restored(_, _, _, let freshNotes) = fresh.perform(.restore(text: backup.text), current: settings)
        else {
            Issue.record("not restored on a new card")
            return
        }
        #expect(
            freshNotes.contains { $0.contains("its broker (mqtt://127.0.0.1:1883) wants a password") }, "\(freshNotes)")
    }

    /// Issue 70: the passwords only when asked, sealed with the owner's passphrase; a new box
    /// restored with the passphrase is the same box, passwords and all; a wrong passphrase or
    /// a changed byte restores nothing; without a passphrase the box keeps its own.
    @Test func passwordsTravelSealedAndOpenOnlyWithThePassphrase() throws {
        let first = try box("sealed-a", saved: String(format: Self.mqtt, "first-secret"))
        let pageHash = try #require(PasswordHashing.hash("the club's page"))
        try (pageHash + "\n").write(toFile: try #require(first.paths.webPassword), atomically: true, encoding: .utf8)
        let settings = Settings(delay: .milliseconds(7_000), volume: 40, channel: "Club Radio")
        let backup = try first.take(settings, passphrase: "orange bicycle lamp")
        #expect(backup.passwords != nil)
        #expect(!backup.text.contains("first-secret") && !backup.text.contains(pageHash), "\(backup.text)")
        guard case .failed(.refused, let short) = first.perform(.take(passphrase: "short"), current: settings) else {
            Issue.record("a short passphrase sealed the passwords")
            return
        }
        #expect(short.contains("at least 8 characters"), "\(short)")

        let second = try box("sealed-b", saved: String(format: Self.mqtt, "second-secret"))
        let secondHash = try #require(PasswordHashing.hash("another page"))
        try (secondHash + "\n").write(toFile: try #require(second.paths.webPassword), atomically: true, encoding: .utf8)
        let current = Settings(delay: .milliseconds(2_000), volume: 50)
        let untouched = (read(second, "config.yaml"), read(second, "web-password"))
        // One character of the sealed passwords changed.
        var changed = backup, sealed = try #require(backup.passwords), characters = Array(sealed.sealed)
        characters[10] = characters[10] == "A" ? "B" : "A"
        sealed.sealed = String(characters)
        changed.passwords = sealed
        for (text, passphrase) in [(backup.text, "orange bicycle lamb"), (changed.text, "orange bicycle lamp")] {
            guard
                case .failed(.refused, let reason) = second.perform(
                    .restore(text: text, passphrase: passphrase), current: current)
            else {
                Issue.record("restored with \(passphrase)")
                continue
            }
            #expect(reason.contains("the passphrase does not open its passwords"), "\(reason)")
            #expect((read(second, "config.yaml"), read(second, "web-password")) == untouched)
            #expect(read(second, "state.json").isEmpty)
        }

        guard case .restored(_, _, _, let notes) = second.perform(.restore(text: backup.text), current: current) else {
            Issue.record("not restored without a passphrase")
            return
        }
        #expect(notes.contains { $0.contains("no passphrase was given: this box keeps its own") }, "\(notes)")
        #expect(!notes.contains { $0.contains("wants a password") }, "this box's own is kept: \(notes)")
        #expect(read(second, "config.yaml").contains("second-secret") && read(second, "web-password") == untouched.1)

        let outcome = second.perform(.restore(text: backup.text, passphrase: "orange bicycle lamp"), current: current)
        guard case .restored(_, _, _, let opened) = outcome else {
            Issue.record("not restored with the passphrase: \(outcome)")
            return
        }
        #expect(opened.contains { $0.contains("the page's password stays this box's") }, "\(opened)")
        #expect(
            read(second, "config.yaml").contains("\"password\": \"first-secret\""), "\(read(second, "config.yaml"))")
        #expect(read(second, "web-password") == untouched.1, "a page password is changed only with the current one")

        // A new card, no page password yet: it takes the backup's.
        try FileManager.default.removeItem(atPath: try #require(second.paths.webPassword))
        let fresh = second.perform(.restore(text: backup.text, passphrase: "orange bicycle lamp"), current: current)
        guard case .restored(_, _, _, let freshNotes) = fresh else {
            Issue.record("not restored on a new card: \(fresh)")
            return
        }
        #expect(freshNotes.contains { $0.contains("the page's password is the backup's") }, "\(freshNotes)")
        #expect(read(second, "web-password") == pageHash + "\n")
        #expect(
            PasswordHashing.matches(
                "the club's page", hash: read(second, "web-password").trimmingCharacters(in: .newlines)))
    }

    /// Sealed with the right passphrase but naming a key that is no password: refused, as a
    /// seal is no way to set what the config's text may not.
    @Test func sealedKeysMustBePasswords() throws {
        let files = try box("sealed-stray", saved: String(format: Self.mqtt, "kept"))
        var backup = try files.take(Settings(delay: .milliseconds(5_000), volume: 50))
        backup.passwords = SealedPasswords.seal(
            .init(config: ["channels.0.url": "file:///etc/shadow"], page: nil), passphrase: "orange bicycle lamp",
            nonce: PasswordHashing.randomBytes(12), derive: { PasswordHashing.key(from: $0, setting: $1) })
        let outcome = files.perform(
            .restore(text: backup.text, passphrase: "orange bicycle lamp"), door: .page,
            current: Settings(delay: .milliseconds(2_000), volume: 50))
        guard case .failed(.refused, let reason) = outcome else {
            Issue.record("restored: \(outcome)")
            return
        }
        #expect(reason.contains("its passwords name channels.0.url, which is no password"), "\(reason)")

        // A page hash at a cost a stranger chose (gigabytes per login) is refused too.
        let costly = "$y$jFT$" + String(repeating: "a", count: 22) + "$" + String(repeating: "b", count: 43)
        backup.passwords = SealedPasswords.seal(
            .init(config: [:], page: costly), passphrase: "orange bicycle lamp", nonce: PasswordHashing.randomBytes(12),
            derive: { PasswordHashing.key(from: $0, setting: $1) })
        let refused = files.perform(
            .restore(text: backup.text, passphrase: "orange bicycle lamp"),
            current: Settings(delay: .milliseconds(2_000), volume: 50))
        guard case .failed(.refused, let why) = refused else {
            Issue.record("restored: \(refused)")
            return
        }
        #expect(why.contains("its page password is not a password's hash as a box makes it"), "\(why)")
    }

    @Test func aBackupTheBoardWouldRefuseChangesNothing() throws {
        let files = try box("backup-refused", saved: String(format: Self.mqtt, "kept"))
        var backup = try files.take(Settings(delay: .milliseconds(5_000), volume: 50))
        backup.config = "mqtt:\n  broker: \"carrier-pigeon://loft\"\n"
        let before = read(files, "config.yaml")
        let outcome = files.perform(
            .restore(text: backup.text), current: Settings(delay: .milliseconds(2_000), volume: 50))
        guard case .failed(.refused, let reason) = outcome else {
            Issue.record("restored: \(outcome)")
            return
        }
        #expect(reason.hasPrefix("not restored, nothing changed: its config, line "), "\(reason)")
        #expect(reason.contains("mqtt.broker"), "\(reason)")
        #expect(read(files, "config.yaml") == before && read(files, "state.json").isEmpty)
    }

    @Test func aBackupFromThePageChangesOnlyWhatThePageMay() throws {
        let files = try box("backup-page", saved: "")
        var backup = try files.take(Settings(delay: .milliseconds(5_000), volume: 50))
        func restored(_ config: String) -> String? {
            backup.config = config
            let outcome = files.perform(
                .restore(text: backup.text), door: .page, current: Settings(delay: .milliseconds(2_000), volume: 50))
            if case .failed(_, let reason) = outcome { return reason }
            return nil
        }
        let device = restored("audio:\n  device: \"hw:9\"\n")
        #expect(
            device?.contains("its config sets audio.device: 'audio.device' is the owner's") == true, "\(device ?? "")")
        let file = restored("channels:\n  - name: \"Demo\"\n    url: \"file:///etc/passwd\"\n")
        #expect(file?.contains("its config sets channels.0.url") == true, "\(file ?? "")")
        #expect(read(files, "config.yaml").isEmpty && read(files, "state.json").isEmpty, "nothing written")
        // A secret guessed right is refused as one guessed wrong: a restore is no oracle.
        let secret = try box("backup-page-secret", saved: String(format: Self.mqtt, "the-real-one"))
        var guess = try secret.take(Settings(delay: .milliseconds(5_000), volume: 50))
        for password in ["the-real-one", "a-wrong-one"] {
            guess.config = String(format: Self.mqtt, password)
            let outcome = secret.perform(
                .restore(text: guess.text), door: .page, current: Settings(delay: .milliseconds(2_000), volume: 50))
            guard case .failed(.refused, let reason) = outcome else {
                Issue.record("\(password): \(outcome)")
                continue
            }
            #expect(reason.contains("its config sets mqtt.password") && !reason.contains(password), "\(reason)")
        }
        // What the box has already is no change (the simulated host's demo channel), and a
        // venue's MQTT settings are a backup's to carry.
        let demo = "channels:\n  - name: \"Demo\"\n    url: \"demo://commentary\"\n"
        #expect(restored(demo + "mqtt:\n  broker: \"mqtt://hub.local\"\n  group: \"bar\"\n") == nil)
        #expect(read(files, "config.yaml").contains("hub.local"))
    }

    @Test func anUndoPutsTheChoiceBackButNotTheVolume() throws {
        let files = try box("backup-undo", saved: "")
        files.keepCopy(of: Settings(delay: .milliseconds(2_000), volume: 50), settles: false)
        files.keepCopy(of: Settings(delay: .milliseconds(9_000), volume: 50), settles: true)
        let outcome = files.perform(.undo, current: Settings(delay: .milliseconds(9_000), volume: 65))
        guard case .restored(let restored, true, let changes, _) = outcome else {
            Issue.record("not undone: \(outcome)")
            return
        }
        #expect(restored.settings.delay.milliseconds == 2_000 && restored.settings.volume == 65)
        #expect(changes == ["delay 9 s → 2 s"])
        #expect(files.shelf.copies(maxDelay: .milliseconds(600_000)).count == 1, "the change undone is forgotten")
        guard case .failed(.refused, let reason) = files.perform(.undo, current: restored.settings) else {
            Issue.record("undone twice")
            return
        }
        #expect(reason.hasPrefix("nothing to undo"))
    }
}
