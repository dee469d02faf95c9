import DelayboxConfig
import DelayboxConfigFile
import Foundation
import Testing

/// Volume that is safe to come back to (issue 44): an installer's `max_volume` and a
/// start-up ceiling, read and checked like every key, and the start they make.
@Suite(.timeLimit(.minutes(10))) struct VolumeLimitsTests {
    func load(_ defaults: String) throws -> (config: BoardConfig?, diagnostics: [String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("volume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try (BoardConfigTests.minimal + "defaults:\n" + defaults).write(
            to: directory.appendingPathComponent("board.yaml"), atomically: true, encoding: .utf8)
        let loaded = ConfigFile.load(directory.appendingPathComponent("board.yaml").path)
        return (loaded.config, loaded.diagnostics.map(\.description))
    }

    @Test func theLimitsAreReadAndChecked() throws {
        let read = try load("  max_volume: 70\n  start_volume_max: 40\n")
        #expect(
            read.config?.defaults.maxVolume == 70 && read.config?.defaults.startVolumeMax == 40, "\(read.diagnostics)")
        let unset = try load("  volume: 30\n")
        #expect(unset.config?.defaults.maxVolume == 100 && unset.config?.defaults.startVolumeMax == 100)
        #expect(
            try load("  max_volume: 130\n").diagnostics.contains {
                $0.contains("'defaults.max_volume' is 130; allowed 0-100")
            })
        #expect(
            try load("  volume: 80\n  max_volume: 60\n").diagnostics.contains {
                $0.contains("'defaults.volume' (80) is above 'defaults.max_volume' (60)")
            })
    }

    /// A box saved at 90 starts at the ceiling, says so, and keeps the rest.
    @Test func aBoxNeverStartsLouderThanItsCeilings() throws {
        var defaults = try #require(try load("  start_volume_max: 60\n").config).defaults
        let saved = Settings(delay: .milliseconds(42_000), volume: 90, channel: "Club", presets: [1: 3_000])
        let started = saved.forStart(defaults)
        #expect(
            started.settings.volume == 60 && started.settings.delay.milliseconds == 42_000
                && started.settings.presets == [1: 3_000])
        #expect(started.lowered == "volume 90 was saved; starting at 60 (defaults.start_volume_max)")
        defaults.maxVolume = 50
        #expect(saved.forStart(defaults).settings.volume == 50)
        #expect(saved.forStart(defaults).lowered?.hasSuffix("(defaults.max_volume)") == true)
        #expect(Settings(delay: .milliseconds(0), volume: 40).forStart(defaults).lowered == nil, "quieter: as saved")
    }
}
