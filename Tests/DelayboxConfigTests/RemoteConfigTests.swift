import DelayboxConfig
import DelayboxConfigFile
import Foundation
import Testing

/// The `remote:` section, the shipped remote, and `extends` as a list.
@Suite(.timeLimit(.minutes(10))) struct RemoteConfigTests {
    let boards = BoardConfigTests()

    @Test func theIQaudioBoardHasItsReceiverAndTheShippedRemotesKeys() throws {
        let result = ConfigFile.load(BoardConfigTests.boards.appendingPathComponent("pi3-iqaudio-dacplus.yaml").path)
        let config = try #require(result.config, "\(result.diagnostics)")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let remote = try #require(config.remote)
        #expect(remote.device == "gpio_ir_recv")
        #expect(config.configTxt.contains("dtoverlay=gpio-ir,gpio_pin=25"))
        #expect(remote.keys.count == 21, "every key of the Car MP3 remote")
        let three = try #require(remote.keys.first { $0.name == "KEY_NUMERIC_3" })
        #expect(
            three.code == 0x203 && three.press == ControlBinding(.presetRecall, slot: 3)
                && three.longPress == ControlBinding(.presetSave, slot: 3))
        #expect(remote.keys.first { $0.name == "KEY_VOLUMEUP" }?.code == 115)
        #expect(
            config.gpio?.buttons.first { $0.name == "tap" }?.line == 23,
            "the board's own file still laid over both bases")
    }

    /// Every key name the shipped keymap gives the kernel is one the remote's file maps,
    /// and the other way round: the two files describe one remote.
    @Test func theShippedKeymapAndTheRemotesFileNameTheSameKeys() throws {
        let root = BoardConfigTests.boards.deletingLastPathComponent()
        let keymap = try String(
            contentsOf: root.appendingPathComponent("deploy/rc_keymaps/car-mp3.toml"), encoding: .utf8)
        let kernelNames = Set(
            keymap.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("0x"), let quote = line.firstIndex(of: "\"") else { return nil }
                return String(line[line.index(after: quote)...].dropLast())
            })
        let config = try #require(
            ConfigFile.load(BoardConfigTests.boards.appendingPathComponent("pi3-iqaudio-dacplus.yaml").path).config)
        #expect(kernelNames.count == 21)
        #expect(kernelNames == Set(config.remote?.keys.map(\.name) ?? []))
    }

    @Test func wrongKeysActionsAndSlotsAreReportedWhereTheyAre() throws {
        let found = try boards.diagnostics(
            BoardConfigTests.minimal + """
                remote:
                  device: gpio_ir_recv
                  keys:
                    KEY_VOLUMUP: volume_up
                    KEY_1: preset_recall 12
                    KEY_2: { press: mute 2 }
                    KEY_3: volume_upp
                    KEY_4: { long_press: preset_save 4 }

                """)
        #expect(
            found.contains { $0.hasPrefix("board.yaml:12:5: error:") && $0.contains("did you mean 'KEY_VOLUMEUP'?") },
            "\(found)")
        #expect(
            found.contains("board.yaml:13:12: error: 'remote.keys.KEY_1' is 'preset_recall 12': a preset slot is 1-9"),
            "\(found)")
        #expect(
            found.contains { $0.hasPrefix("board.yaml:14:21: error:") && $0.contains("'mute' takes no slot number") },
            "\(found)")
        #expect(
            found.contains { $0.hasPrefix("board.yaml:15:12: error:") && $0.contains("did you mean 'volume_up'?") },
            "\(found)")
        #expect(found.count == 4, "KEY_4 (a long press alone) is fine: \(found)")
        let noKeys = try boards.diagnostics(BoardConfigTests.minimal + "remote:\n  device: gpio_ir_recv\n")
        #expect(noKeys.contains { $0.contains("'remote.keys' is missing") }, "\(noKeys)")
    }

    @Test func theIRReceiversLineIsTakenFromThePanel() throws {
        let found = try boards.diagnostics(
            BoardConfigTests.minimal.replacingOccurrences(
                of: "hat: hifiberry-dacplus", with: "hat: none\n  config_txt: [\"dtoverlay=gpio-ir,gpio_pin=25\"]")
                    + """
                    gpio:
                      buttons:
                        play: { line: 25, press: play_pause }
                        mute: { line: 18, press: mute }

                    """)
        #expect(
            found == [
                "board.yaml:12:19: error: GPIO 25 (button 'play') is taken by the IR receiver (dtoverlay=gpio-ir in board.config_txt)"
            ], "\(found)")
    }

    @Test func extendsTakesAListLaidOverInOrder() throws {
        let directory = try boards.directory([
            "first.yaml": BoardConfigTests.minimal + "defaults:\n  delay: 7 s\n  volume: 10\n",
            "second.yaml": "defaults:\n  delay: 9 s\n  volume: 20\n",
            "board.yaml": "extends: [first.yaml, second.yaml]\ndefaults:\n  volume: 70\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConfigFile.load(directory.appendingPathComponent("board.yaml").path)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let config = try #require(result.config)
        #expect(
            config.defaults.delay.milliseconds == 9_000 && config.defaults.volume == 70,
            "the second base over the first, the file over both")
        let broken = try boards.diagnostics(
            "extends: [first.yaml, [nested]]\n", extra: ["first.yaml": BoardConfigTests.minimal])
        #expect(broken.contains { $0.contains("'extends' names a file, or a list of files") }, "\(broken)")
    }
}
