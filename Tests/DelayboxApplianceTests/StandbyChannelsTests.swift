import DelayboxEngine
import DelayboxProgramme
import DelayboxSimulation
import DelayboxStream
import Testing

/// Issue 44: a reload changes which channels record in the background. Before, the set
/// was made once at the start: a channel newly marked `record` was not recorded, one
/// removed recorded on, and one whose URL changed played the old URL when chosen.
@Suite(.timeLimit(.minutes(10))) struct StandbyChannelsTests {
    @Test func aReloadStartsStopsAndRedefinesTheRecordedChannels() throws {
        let clock = ManualClock()
        let first = try ChannelLineup([
            Channel(name: "Live", streamURL: "demo://live"),
            Channel(name: "Dropped", streamURL: "demo://dropped", record: true),
            Channel(name: "Moved", streamURL: "demo://old", record: true),
            Channel(name: "Kept", streamURL: "demo://kept", record: true),
        ])
        let standby = try StandbyChannels(
            lineup: first, playing: "Live", configuration: EngineConfiguration(), delay: .milliseconds(2_000),
            client: StreamClient.Options(), clock: clock, wallClock: { nil }, now: clock.now())
        #expect(standby.names == ["Dropped", "Kept", "Moved"])
        clock.advance(byNanoseconds: 3_000_000_000)
        standby.poll(now: clock.now())
        let keptBefore = try #require(standby.take("Kept"))
        standby.keep(keptBefore, now: clock.now())

        let second = try ChannelLineup([
            Channel(name: "Live", streamURL: "demo://live"),
            Channel(name: "Dropped", streamURL: "demo://dropped"),
            Channel(name: "Moved", streamURL: "demo://new", record: true),
            Channel(name: "Kept", streamURL: "demo://kept", record: true),
            Channel(name: "New", streamURL: "demo://added", record: true),
        ])
        try standby.reconcile(with: second, playing: "Live", delay: .milliseconds(2_000), now: clock.now())
        #expect(standby.names == ["Kept", "Moved", "New"])
        #expect(standby.take("Moved")?.channel.streamURL == "demo://new", "recorded from its new URL")
        #expect(standby.take("Kept") === keptBefore, "an unchanged channel records on, its buffer kept")
    }
}
