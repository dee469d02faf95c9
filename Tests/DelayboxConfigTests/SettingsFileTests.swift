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

@Suite(.serialized) struct SettingsFileTests {
    static let root = BoardConfigTests.boards.deletingLastPathComponent()
    let defaults = Settings(delayMs: 5_000, volume: 50)

    @Test func savedSettingsComeBack() throws {
        let directory = try ExternalTool.temporaryDirectory("settings")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = SettingsFile(path: directory.appendingPathComponent("state.json").path)
        let settings = Settings(delayMs: 42_300, volume: 37, channel: "City Radio", presets: [1: 40_000, 2: 61_500], adsEnabled: false)
        try file.save(settings)
        let loaded = file.load(fallback: defaults, maxDelayMs: 300_000)
        #expect(loaded.settings == settings && loaded.problem == nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "state.json" }
        #expect(leftovers.isEmpty, "no temporary file is left behind: \(leftovers)")
    }

    @Test(arguments: ["", "{\"version\":1,\"settings\":{\"delayMs\":", "\u{0}\u{0}\u{0}garbage", "{\"version\":9,\"settings\":{}}",
                      "{\"version\":1,\"settings\":{\"delayMs\":-5,\"volume\":400,\"presets\":{},\"adsEnabled\":true}}"])
    func aMissingOrCorruptFileGivesDefaultsAndAReason(contents: String) throws {
        let directory = try ExternalTool.temporaryDirectory("settings")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.json").path
        let missing = SettingsFile(path: path).load(fallback: defaults, maxDelayMs: 300_000)
        #expect(missing.settings == defaults && missing.problem?.contains("no state file") == true)
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = SettingsFile(path: path).load(fallback: defaults, maxDelayMs: 300_000)
        #expect(loaded.settings == defaults)
        #expect(loaded.problem?.hasPrefix(path) == true, "\(loaded.problem ?? "no reason")")
    }

    /// Kills a process that saves settings as fast as it can at random moments, 1000 times,
    /// and reads the file after each kill: always a whole generation, old or new, never a
    /// mix, never going back.
    @Test func aWriterKilledAtRandomLeavesTheOldOrTheNewSettingsNeverAMix() throws {
        let directory = try ExternalTool.temporaryDirectory("settings-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.json").path
        let writer = Self.root.appendingPathComponent(".build/debug/delaybox-settings-writer")
        var random = SplitMix64(seed: 1_000)
        var lastSeen: Int64 = -1
        var generationsSeen = Set<Int64>()
        for _ in 0..<1_000 {
            let process = Process()
            let started = Pipe()
            process.executableURL = writer
            process.arguments = [path, String(lastSeen + 1)]
            process.standardOutput = started
            try process.run()
            _ = try started.fileHandleForReading.read(upToCount: 1)  // its first save is done
            usleep(UInt32.random(in: 0...8_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let loaded = SettingsFile(path: path).load(fallback: defaults, maxDelayMs: 300_000)
            #expect(loaded.problem == nil, "\(loaded.problem ?? "")")
            let generation = try #require(loaded.settings.channel.flatMap { Int64($0.dropFirst("channel-".count)) })
            #expect(loaded.settings == Self.settings(generation), "generation \(generation) is whole")
            #expect(generation >= lastSeen, "never older than what was read before")
            lastSeen = generation
            generationsSeen.insert(generation)
        }
        #expect(generationsSeen.count > 500, "the kills landed at many different points: \(generationsSeen.count) generations")
        let strays = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "state.json" }
        #expect(strays.isEmpty, "temporary files of killed writers are removed at the next load: \(strays)")
    }

    /// The same derivation as the writer's.
    static func settings(_ n: Int64) -> Settings {
        Settings(delayMs: n % 300_000, volume: Int(n % 101), channel: "channel-\(n)",
                 presets: [1: n % 1_000, 2: (n * 7) % 300_000, 3: n % 300_000], adsEnabled: n % 2 == 0)
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
