import DelayboxAnswers
import DelayboxApp
import DelayboxConfig
import DelayboxEngine
import DelayboxSimulation
import DelayboxStream
import DelayboxTestSupport
import DelayboxUnits
import Foundation
import Testing

/// Issue 67: the rate a station was followed at is kept with the settings, so that it
/// starts locked the next time (`StationClockSimulationTests.aStationPlayedBeforeStartsLocked`
/// measures what that is worth at the jack).
@Suite(.timeLimit(.minutes(10))) struct StationClockMemoryTests {
    @Test func aStationsClockIsKeptWithTheSettingsOnlyWhenItMoved() throws {
        let rig = try EngineRig(configuration: EngineConfiguration(), historyPackets: 10, burstPackets: 10)
        let executor = CommandExecutor(engine: rig.engine, settings: Settings(delay: .milliseconds(5_000), volume: 50))
        let now = Instant.zero
        _ = executor.settingsDueForSave(at: now.advanced(byMilliseconds: 60_000))
        executor.remember(stationPpm: 212.34, of: "http://club/live", now: now)
        #expect(executor.settings.stationClocks == ["http://club/live": 212.3])
        #expect(executor.settingsDueForSave(at: now.advanced(byMilliseconds: 60_000)), "a change is saved")
        executor.remember(stationPpm: 212.6, of: "http://club/live", now: now)
        #expect(!executor.settingsDueForSave(at: now.advanced(byMilliseconds: 120_000)), "under half a ppm: no write")
        executor.remember(stationPpm: 213.0, of: "http://club/live", now: now)
        #expect(executor.settings.stationClocks?["http://club/live"] == 213)
        for index in 0..<Settings.stationClocksKept + 5 {
            executor.remember(stationPpm: Double(index), of: "http://station\(index)/", now: now)
        }
        #expect(executor.settings.stationClocks?.count == Settings.stationClocksKept)
        #expect(executor.settings.stationClocks?["http://station68/"] == 68, "the newest is kept")

        // Through the state file, and a file an older release wrote (none kept) still reads.
        let saved = try Settings.decode(executor.settings.encoded(), maxDelay: .milliseconds(300_000)).get()
        #expect(saved.stationClocks == executor.settings.stationClocks)
        let older = try Settings.decode(
            Settings(delay: .milliseconds(5_000), volume: 50).encoded(), maxDelay: .milliseconds(300_000)
        ).get()
        #expect(older.stationClocks == nil)
    }

    @Test func aChannelStartsAtTheRateKeptForItsStation() throws {
        let channel = Channel(name: "Club", streamURL: "demo://commentary")
        let known = try ChannelSession(
            channel: channel, configuration: EngineConfiguration(), delay: .milliseconds(3_000), knownStationPpm: -120,
            client: nil, clock: ManualClock())
        #expect(known.engine.statistics.stationClockPpm == -120)
        #expect(known.engine.statistics.stationClockPpmError == nil, "not yet fitted: not kept again")
        // An edited state file's rate no crystal has is not taken.
        let edited = try ChannelSession(
            channel: channel, configuration: EngineConfiguration(), delay: .milliseconds(3_000), knownStationPpm: 5_000,
            client: nil, clock: ManualClock())
        #expect(edited.engine.statistics.stationClockPpm == nil)
    }
}
