import DelayboxConfig
import DelayboxEngine
import DelayboxSimulation
import DelayboxState
import DelayboxTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.serialized, .timeLimit(.minutes(10))) struct SettingsFileTests {
    static let root = BoardConfigTests.boards.deletingLastPathComponent()
    let defaults = Settings(delay: .milliseconds(5_000), volume: 50)

    @Test func savedSettingsComeBack() throws {
        let directory = try ExternalTool.temporaryDirectory("settings")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = SettingsFile(path: directory.appendingPathComponent("state.json").path)
        let settings = Settings(
            delay: .milliseconds(42_300), volume: 37, channel: "City Radio", presets: [1: 40_000, 2: 61_500],
            adsEnabled: false)
        try file.save(settings)
        let loaded = file.load(fallback: defaults, maxDelay: .milliseconds(300_000))
        #expect(loaded.settings == settings && loaded.problem == nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0 != "state.json"
        }
        #expect(leftovers.isEmpty, "no temporary file is left behind: \(leftovers)")
    }

    @Test(arguments: [
        "", "{\"version\":1,\"settings\":{\"delayMs\":", "\u{0}\u{0}\u{0}garbage", "{\"version\":9,\"settings\":{}}",
        "{\"version\":1,\"settings\":{\"delayMs\":-5,\"volume\":400,\"presets\":{},\"adsEnabled\":true}}",
        // A delay no duration holds (beyond 292 years): refused, not trapped on or clamped.
        "{\"version\":1,\"settings\":{\"delayMs\":9223372036854775807,\"volume\":5,\"presets\":{},\"adsEnabled\":true}}",
    ])
    func aMissingOrCorruptFileGivesDefaultsAndAReason(contents: String) throws {
        let directory = try ExternalTool.temporaryDirectory("settings")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.json").path
        let missing = SettingsFile(path: path).load(fallback: defaults, maxDelay: .milliseconds(300_000))
        #expect(missing.settings == defaults && missing.problem?.contains("no state file") == true)
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = SettingsFile(path: path).load(fallback: defaults, maxDelay: .milliseconds(300_000))
        #expect(loaded.settings == defaults)
        #expect(loaded.problem?.hasPrefix(path) == true, "\(loaded.problem ?? "no reason")")
    }

    /// Kills a process that saves settings as fast as it can at random moments, 1000 times,
    /// and reads the file after each kill: always a whole generation, never a mix, never
    /// older than the last one the writer reported saved. (A killed process leaves the
    /// kernel's page cache behind, so this shows atomicity only; durability through a
    /// power cut is VirtualBoardTests' power-cut test.)
    @Test func aWriterKilledAtRandomLeavesTheOldOrTheNewSettingsNeverAMix() throws {
        let directory = try ExternalTool.temporaryDirectory("settings-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.json").path
        let writer = BuiltProgram.url("delaybox-settings-writer", root: Self.root)
        var random = SplitMix64(seed: 1_000)
        var lastSeen: Int64 = -1
        for _ in 0..<1_000 {
            let reports = Pipe()
            let process = try LaunchedProgram(writer, [path, String(lastSeen + 1)], output: .pipe(reports))
            let first = try reports.fileHandleForReading.read(upToCount: 1) ?? Data()  // its first save is done
            usleep(UInt32.random(in: 0...8_000, using: &random))  // the point: killed at a random moment
            process.kill()
            try reports.fileHandleForWriting.close()
            let reported =
                String(decoding: first + (try reports.fileHandleForReading.readToEnd() ?? Data()), as: UTF8.self)
                .split(separator: "\n").last.flatMap { Int64($0) } ?? lastSeen + 1
            let loaded = SettingsFile(path: path).load(fallback: defaults, maxDelay: .milliseconds(300_000))
            #expect(loaded.problem == nil, "\(loaded.problem ?? "")")
            let generation = try #require(loaded.settings.generation, "one whole generation: \(loaded.settings)")
            #expect(generation >= reported, "generation \(generation) on disk; \(reported) was reported saved")
            lastSeen = generation
        }
        let strays = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "state.json" }
        #expect(strays.isEmpty, "temporary files of killed writers are removed at the next load: \(strays)")
    }

    /// Issue 44: a max_delay lowered under a saved delay or preset rejected the whole file
    /// (volume, presets and channel lost, then overwritten by the next save). What no
    /// longer fits is clamped and said; the rest is kept; a corrupt value still refuses it.
    @Test func aLowerMaxDelayClampsWhatNoLongerFitsAndKeepsTheRest() throws {
        let directory = try ExternalTool.temporaryDirectory("settings-clamp")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.json").path
        let saved = Settings(
            delay: .milliseconds(600_000), volume: 37, channel: "Away", presets: [1: 4_000, 2: 450_000])
        try SettingsFile(path: path).save(saved)
        let defaults = Settings(delay: .milliseconds(5_000), volume: 50)
        let loaded = SettingsFile(path: path).load(fallback: defaults, maxDelay: .milliseconds(300_000))
        #expect(
            loaded.settings.delay.milliseconds == 300_000 && loaded.settings.volume == 37
                && loaded.settings.channel == "Away")
        #expect(loaded.settings.presets == [1: 4_000, 2: 300_000])
        #expect(
            loaded.problem?.contains(
                "the delay 600000 ms is above max_delay (300000 ms): 300000 ms; preset 2 (450000 ms) is above max_delay"
            ) == true,
            "\(loaded.problem ?? "")")
        try SettingsFile(path: path).save(Settings(delay: .milliseconds(1_000), volume: 130))
        let corrupt = SettingsFile(path: path).load(fallback: defaults, maxDelay: .milliseconds(300_000))
        #expect(corrupt.settings == defaults && corrupt.problem?.contains("out of range") == true)
    }

    @Test func savingWaitsForTheKnobToRestButNotForever() {
        var debouncer = SaveDebouncer()
        let t0 = Instant.seconds(100)
        for detent in 0..<10 { debouncer.changed(at: t0.advanced(byNanoseconds: Int64(detent) * 100_000_000)) }
        let early = debouncer.shouldSave(at: .seconds(102.8))
        #expect(!early, "1.9 s after the last detent")
        let rested = debouncer.shouldSave(at: .seconds(103.0))
        #expect(rested, "2 s after the last detent")
        let again = debouncer.shouldSave(at: .seconds(104))
        #expect(!again, "saved: nothing left")
        // A knob turned without rest is saved every 30 s.
        var saves: [Double] = []
        for tick in 0..<700 {
            let now = Instant.seconds(200 + Double(tick) * 0.1)
            debouncer.changed(at: now)
            if debouncer.shouldSave(at: now) { saves.append(now.seconds - 200) }
        }
        #expect(saves.count == 2 && abs(saves[0] - 30) < 0.01, "\(saves)")
    }
}
