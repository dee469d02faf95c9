import DelayboxConfig
import DelayboxConsole
import DelayboxFiles
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
                journalDirectory: path("journal"), board: board.path, site: nil),
            box: name, release: "1.0", nowUnixMs: { 1_796_040_584_000 })
    }

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
        let settings = Settings(delayMs: 7_000, volume: 40, channel: "Club Radio", presets: [3: 4_500])
        let backup = try first.take(settings)
        #expect(!backup.text.contains("first-secret") && backup.config.contains("screen1"), "\(backup.text)")
        #expect(backup.config.contains("Club Radio"))

        let second = try box("backup-b", saved: String(format: Self.mqtt, "second-secret"))
        let outcome = second.perform(.restore(text: backup.text), current: Settings(delayMs: 2_000, volume: 50))
        guard case .restored(let restored, let undo, let changes, let notes) = outcome else {
            Issue.record("not restored: \(outcome)")
            return
        }
        #expect(!undo && notes.isEmpty && restored.settings == settings)
        #expect(changes.first == "delay 2 s → 7 s", "\(changes)")
        #expect(read(second, "config.yaml").contains("second-secret"), "\(read(second, "config.yaml"))")
        let state = try Settings.decode(Data(read(second, "state.json").utf8), maxDelayMs: 600_000).get()
        #expect(state == settings)
    }

    @Test func aBackupTheBoardWouldRefuseChangesNothing() throws {
        let files = try box("backup-refused", saved: String(format: Self.mqtt, "kept"))
        var backup = try files.take(Settings(delayMs: 5_000, volume: 50))
        backup.config = "mqtt:\n  broker: \"carrier-pigeon://loft\"\n"
        let before = read(files, "config.yaml")
        let outcome = files.perform(.restore(text: backup.text), current: Settings(delayMs: 2_000, volume: 50))
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
        var backup = try files.take(Settings(delayMs: 5_000, volume: 50))
        func restored(_ config: String) -> String? {
            backup.config = config
            let outcome = files.perform(
                .restore(text: backup.text), door: .page, current: Settings(delayMs: 2_000, volume: 50))
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
        var guess = try secret.take(Settings(delayMs: 5_000, volume: 50))
        for password in ["the-real-one", "a-wrong-one"] {
            guess.config = String(format: Self.mqtt, password)
            let outcome = secret.perform(
                .restore(text: guess.text), door: .page, current: Settings(delayMs: 2_000, volume: 50))
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
        files.keepCopy(of: Settings(delayMs: 2_000, volume: 50), settles: false)
        files.keepCopy(of: Settings(delayMs: 9_000, volume: 50), settles: true)
        let outcome = files.perform(.undo, current: Settings(delayMs: 9_000, volume: 65))
        guard case .restored(let restored, true, let changes, _) = outcome else {
            Issue.record("not undone: \(outcome)")
            return
        }
        #expect(restored.settings.delayMs == 2_000 && restored.settings.volume == 65)
        #expect(changes == ["delay 9 s → 2 s"])
        #expect(files.shelf.copies(maxDelayMs: 600_000).count == 1, "the change undone is forgotten")
        guard case .failed(.refused, let reason) = files.perform(.undo, current: restored.settings) else {
            Issue.record("undone twice")
            return
        }
        #expect(reason.hasPrefix("nothing to undo"))
    }
}
