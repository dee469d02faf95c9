import DelayboxEngine
import DelayboxSimulation
import DelayboxStream
import Testing

/// What a channel's session does with a title's values before the engine sees them
/// (issue 39), on a manual clock and a fixed wall clock: an ad tag's START is compared
/// with this box's clock where it is used (a title at connecting), a clip on another host
/// is refused, and each refusal is said once per connection.
@Suite(.timeLimit(.minutes(10))) struct TitleRefusalTests {
    static let now = 1_795_500_000.0

    func session(clock: ManualClock = ManualClock(), unixTime: @escaping @Sendable () -> Double? = { Self.now }) throws
        -> ChannelSession
    {
        let channel = Channel(name: "Live", streamURL: "http://radio.example/live.mp3")
        let session = try ChannelSession(
            channel: channel, configuration: EngineConfiguration(), delay: .milliseconds(2_000), client: nil,
            clock: clock, unixTime: unixTime)
        session.start(now: .zero)
        _ = session.apply(.started("test connection", at: .zero))
        return session
    }

    /// A break that ended less long ago than the longest delay may still be ahead of a
    /// delayed listener: the engine places it and decides (AdBreaksOnAirTests).
    @Test func aBreakOverBeforeTheLongestDelayOrFarInTheFutureIsRefusedAtConnecting() throws {
        // The longest delay is EngineConfiguration's 5 min: a 30 s break that began more
        // than 330 s ago is over wherever playout can be.
        for (offset, reason) in [
            (-1_000.0, "began 1000 s ago by this box's clock: its 30 s ended before the longest delay (300 s)"),
            (3_600.0, "begins 3600 s from now by this box's clock, beyond the clocks' plausible error (60 s)"),
            (-331.0, "began 331 s ago"),
        ] {
            let lines = try session().apply(
                .title(
                    "Ads [delaybox:ad@\(Self.now + offset) 30 http://radio.example/a.mp3]",
                    connectionTimestamp: 0, at: .zero))
            #expect(lines.count == 1 && lines[0].contains(reason), "\(offset): \(lines)")
        }
        for offset in [-329.0, -31, 0, 59] {
            let session = try session()
            let lines = session.apply(
                .title(
                    "Ads [delaybox:ad@\(Self.now + offset) 30 http://radio.example/a.mp3]", connectionTimestamp: 0,
                    at: .zero))
            #expect(lines.isEmpty, "\(offset): \(lines)")
        }
    }

    /// A Pi without a real-time clock starts from an old time after a power cut: until the
    /// network time has set it, a START is not compared with it (a long-finished break
    /// would be placed at now) — the break is one whose start was not heard: not played.
    @Test func aStartIsNotPlacedByAClockTheNetworkHasNotSet() throws {
        let lines = try session(unixTime: { nil }).apply(
            .title(
                "Ads [delaybox:ad@\(Self.now - 10) 30 http://radio.example/a.mp3]",
                connectionTimestamp: 0, at: .zero))
        #expect(
            lines.count == 1 && lines[0].contains("this box's clock is not set by the network time yet"), "\(lines)")
        let later = try session(unixTime: { nil }).apply(
            .title("Ads [delaybox:ad 30 http://radio.example/a.mp3]", connectionTimestamp: 0, at: .zero))
        #expect(later.isEmpty, "a break without a START needs no clock: \(later)")
    }

    /// A START is compared with the wall clock as it was when the title came, not when the
    /// playout got to it: 335 s before the handling is 325 s before the arrival 10 s earlier,
    /// within the 330 s a 30 s break stays playable at a 5 min longest delay.
    @Test func aStartIsComparedWithTheTimeItsTitleCame() throws {
        let clock = ManualClock()
        let session = try session(clock: clock)
        clock.advance(byNanoseconds: 10_000_000_000)
        let lines = session.apply(
            .title(
                "Ads [delaybox:ad@\(Self.now - 335) 30 http://radio.example/a.mp3]", connectionTimestamp: 0, at: .zero))
        #expect(lines.isEmpty, "\(lines)")
        let late = try self.session(clock: clock).apply(
            .title(
                "Ads [delaybox:ad@\(Self.now - 345) 30 http://radio.example/a.mp3]",
                connectionTimestamp: 0, at: .zero))
        #expect(late.count == 1 && late[0].contains("began 335 s ago by this box's clock"), "\(late)")
    }

    @Test func aRefusalIsSaidOncePerConnection() throws {
        let session = try session()
        let hostile = "Hi [delaybox:ad 5 http://192.168.1.1/a.mp3]"
        #expect(session.apply(.title(hostile, connectionTimestamp: 0, at: .zero)).count == 1)
        #expect(session.apply(.title("Other", connectionTimestamp: 100, at: .zero)).isEmpty)
        #expect(session.apply(.title(hostile, connectionTimestamp: 200, at: .zero)).isEmpty, "the same connection")
        _ = session.apply(.started("reconnected", at: .zero))
        #expect(
            session.apply(.title(hostile, connectionTimestamp: 0, at: .zero)).count == 1,
            "a new connection says it again")
    }
}
