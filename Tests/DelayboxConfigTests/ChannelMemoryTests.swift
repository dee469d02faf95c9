import DelayboxConfig
import DelayboxConfigFile
import DelayboxEngine
import Foundation
import Testing

/// Issue 44: the channels' buffers at their maximum against the board's memory. Three
/// line-in or 320 kbps channels recorded at a 60 min max_delay on a Pi Zero 2 W (512 MB)
/// ended in the OOM killer; check-config and a reload now refuse such a lineup.
@Suite(.timeLimit(.minutes(10))) struct ChannelMemoryTests {
    static func config(maxDelay: String, channels: [(url: String, record: Bool)]) throws -> BoardConfig {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = channels.enumerated().map {
            "  - name: C\($0.offset)\n    url: \($0.element.url)\n    record: \($0.element.record)"
        }
        let yaml =
            BoardConfigTests.minimal.replacingOccurrences(
                of: "channels:\n  - name: Club\n    url: http://radio.example/live.mp3\n", with: "")
            + "channels:\n" + list.joined(separator: "\n") + "\ndefaults:\n  max_delay: \(maxDelay)\n"
        try yaml.write(to: directory.appendingPathComponent("board.yaml"), atomically: true, encoding: .utf8)
        let loaded = ConfigFile.load(directory.appendingPathComponent("board.yaml").path)
        return try #require(loaded.config, "\(loaded.diagnostics)")
    }

    @Test func aLineupThatCannotFitThePiZeroIsRefusedOneThatFitsIsNot() throws {
        let piZero: Int64 = 512 * 1_048_576
        let heavy = try Self.config(
            maxDelay: "60 min",
            channels: [("http://a.example/a.mp3", false), ("alsa:hw:0", true), ("http://b.example/b", true)])
        #expect(
            ChannelMemory.worstCaseBytes(heavy.channels, maxDelay: heavy.defaults.maxDelay) == 144_000_000
                + 691_200_000 + 144_000_000)
        let problem = try #require(ChannelMemory.problem(heavy, ramBytes: piZero))
        #expect(
            problem.contains("need up to 933 MB at max_delay 60 min (2 recorded")
                && problem.contains("256 MB for them"), "\(problem)")
        #expect(ChannelMemory.problem(heavy, ramBytes: 4 * 1_024 * 1_048_576) == nil, "a 4 GB Pi 4 holds it")
        let usual = try Self.config(
            maxDelay: "5 min",
            channels: [("http://a.example/a.mp3", false), ("http://b.example/b", true), ("http://c.example/c", true)])
        #expect(
            ChannelMemory.problem(usual, ramBytes: piZero) == nil, "the shipped 5 min with two recorded fits a Pi Zero")
        let one = try Self.config(
            maxDelay: "60 min", channels: [("http://a.example/a.mp3", false), ("http://b.example/b.mp3", false)])
        #expect(ChannelMemory.problem(one, ramBytes: piZero) == nil, "only one plays at a time: 144 MB")
    }
}
