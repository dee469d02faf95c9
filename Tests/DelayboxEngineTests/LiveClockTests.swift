import Testing

@testable import DelayboxEngine

/// The engine's live clock on its own (issue 69: a type with its state private), fed as the
/// engine feeds it: a placement that settles, then each packet's arrival.
@Suite(.timeLimit(.minutes(10))) struct LiveClockTests {
    /// A connection's 24 ms packets from a station `ppm` off, each arriving on time, for
    /// `seconds`; the placement settles after 5 s at base 0. Returns the clock and the
    /// station-clock reports it made.
    static func fed(ppm: Double, seconds: Int, moveAt: Int? = nil, by frames: Int64 = 0) -> (
        clock: LiveClock, farOff: [Double]
    ) {
        var clock = LiveClock(knownPpm: nil)
        var farOff: [Double] = []
        let packet = Int64(1_152)
        var settled = false
        var local: Int64 = 0
        while local < Int64(seconds) * Int64(AudioFormat.sampleRate) {
            let now = Instant.zero.advanced(byFrames: local)
            clock.start(at: now)
            if !settled, local >= 5 * Int64(AudioFormat.sampleRate) {
                clock.settled(spliced: false, base: .zero, firstSequence: 0, settledAt: now)
                settled = true
            }
            if let moveAt, local / Int64(AudioFormat.sampleRate) == Int64(moveAt),
                local % Int64(AudioFormat.sampleRate) < packet
            {
                clock.move(by: StationFrames(frames))
            }
            let stream = Int64((Double(local + packet) * (1 + ppm / 1e6)).rounded())
            if clock.observe(stream: stream, beforeBatching: false, at: now),
                let following = clock.follow(at: now, placementFixed: settled, sparse: false, knownPpm: nil),
                let ppm = following.farOff
            {
                farOff.append(ppm)
            }
            local += packet
        }
        return (clock, farOff)
    }

    /// Before the first packet nothing is live; from it, live runs at the nominal rate.
    @Test func liveCountsFromTheFirstPacket() {
        var clock = LiveClock(knownPpm: nil)
        #expect(clock.position(at: .seconds(3)) == .zero && clock.liveTime(ofPosition: .zero) == nil)
        clock.start(at: .seconds(3))
        clock.start(at: .seconds(4))
        #expect(clock.position(at: .seconds(5)) == StationFrames(2 * Int64(AudioFormat.sampleRate)))
        #expect(clock.liveTime(ofPosition: StationFrames(Int64(AudioFormat.sampleRate))) == .seconds(4))
    }

    /// A station 500 ppm fast is followed at its rate, said once, and live moves with it:
    /// after three minutes the live line runs at the station's rate.
    @Test func aFastStationIsFollowedAndSaidOnce() {
        let (clock, farOff) = Self.fed(ppm: 500, seconds: 180)
        #expect(abs((clock.line.rate - 1) * 1e6 - 500) < 5, "\((clock.line.rate - 1) * 1e6) ppm")
        #expect(farOff.count == 1 && abs(farOff[0] - 500) < 15, "\(farOff)")
        let (nominal, quiet) = Self.fed(ppm: 0, seconds: 180)
        #expect(abs(nominal.line.rate - 1) * 1e6 < 5 && quiet.isEmpty)
    }

    /// A room's move is kept through the refits after it: live lies that much further on.
    @Test func aRoomsMoveIsKeptThroughRefits() {
        let (still, _) = Self.fed(ppm: 200, seconds: 180)
        let (moved, _) = Self.fed(ppm: 200, seconds: 180, moveAt: 30, by: 480)
        let end = Instant.seconds(180)
        #expect(moved.position(at: end) - still.position(at: end) == StationFrames(480))
    }

    /// A station played before is followed at its known rate from the first packet.
    @Test func aKnownStationRunsAtItsRateFromTheStart() {
        var clock = LiveClock(knownPpm: -250)
        clock.start(at: .zero)
        #expect(clock.position(at: .seconds(100)) == StationFrames(Int64((100 * 48_000 * (1 - 250e-6)).rounded())))
    }
}
