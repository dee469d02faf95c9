import DelayboxEngine
import DelayboxSimulation
import DelayboxStream
import Testing

/// What a channel's session does with a title's values before the engine sees them
/// (issue 39), on a manual clock and a fixed wall clock: an ad tag's START is compared
/// with this box's clock where it is used (a title at connecting), a clip on another host
/// is refused, and each refusal is said once per connection.
@Suite struct TitleRefusalTests {
    static let now = 1_795_500_000.0

    func session() throws -> ChannelSession {
        let channel = Channel(name: "Live", streamURL: "http://radio.example/live.mp3")
        let session = try ChannelSession(channel: channel, configuration: EngineConfiguration(), delayMs: 2_000, client: nil,
                                         clock: ManualClock(), unixTime: { Self.now })
        session.start(now: .zero)
        _ = session.apply(.started("test connection", at: .zero))
        return session
    }

    /// A break that ended less long ago than the longest delay may still be ahead of a
    /// delayed listener: the engine places it and decides (AdBreaksOnAirTests).
    @Test func aBreakOverBeforeTheLongestDelayOrFarInTheFutureIsRefusedAtConnecting() throws {
        // The longest delay is EngineConfiguration's 5 min: a 30 s break that began more
        // than 330 s ago is over wherever playout can be.
        for (offset, reason) in [(-1_000.0, "began 1000 s ago by this box's clock: its 30 s ended before the longest delay (300 s)"),
                                 (3_600.0, "begins 3600 s from now by this box's clock, beyond the clocks' plausible error (60 s)"),
                                 (-331.0, "began 331 s ago")] {
            let lines = try session().apply(.title("Ads [delaybox:ad@\(Self.now + offset) 30 http://radio.example/a.mp3]",
                                                   connectionTimestamp: 0, at: .zero))
            #expect(lines.count == 1 && lines[0].contains(reason), "\(offset): \(lines)")
        }
        for offset in [-329.0, -31, 0, 59] {
            let session = try session()
            let lines = session.apply(.title("Ads [delaybox:ad@\(Self.now + offset) 30 http://radio.example/a.mp3]", connectionTimestamp: 0, at: .zero))
            #expect(lines.isEmpty, "\(offset): \(lines)")
        }
    }

    @Test func aRefusalIsSaidOncePerConnection() throws {
        let session = try session()
        let hostile = "Hi [delaybox:ad 5 http://192.168.1.1/a.mp3]"
        #expect(session.apply(.title(hostile, connectionTimestamp: 0, at: .zero)).count == 1)
        #expect(session.apply(.title("Other", connectionTimestamp: 100, at: .zero)).isEmpty)
        #expect(session.apply(.title(hostile, connectionTimestamp: 200, at: .zero)).isEmpty, "the same connection")
        _ = session.apply(.started("reconnected", at: .zero))
        #expect(session.apply(.title(hostile, connectionTimestamp: 0, at: .zero)).count == 1, "a new connection says it again")
    }
}
