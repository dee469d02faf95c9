import DelayboxEngine
import DelayboxSimulation
import DelayboxTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct RobustnessTests {
    @Test func malformedPacketsAreRefusedWithAReasonAndNothingElseChanges() throws {
        let rig = try EngineRig(configuration: EngineConfiguration())
        rig.run(milliseconds: 1_000)
        rig.engine.ingest(StreamPacket(payload: [1, 2, 3], connectionTimestamp: 0, durationFrames: 0), now: rig.now)
        rig.engine.ingest(StreamPacket(payload: [], connectionTimestamp: 0, durationFrames: 960), now: rig.now)
        rig.engine.ingest(StreamPacket(payload: [1], connectionTimestamp: 0, durationFrames: 1_000_000), now: rig.now)
        rig.run(milliseconds: 2_000)
        let reasons = rig.notifications { notification -> String? in
            guard case .packetRejected(let reason) = notification else { return nil }
            return reason
        }
        #expect(reasons.count == 3)
        #expect(reasons[0].contains("duration"))
        #expect(reasons[1].contains("payload"))
        let status = rig.engine.status(at: rig.now)
        #expect(status.statistics.rejectedPackets == 3)
        #expect(status.state == .playing)
        let heard = SignalChecks.exactFrames(rig.output.samples)
        #expect(
            zip(heard, heard.dropFirst()).allSatisfy { $1.streamFrame - $0.streamFrame == 1 || $1.frame - $0.frame > 1 }
        )
    }

    @Test func aPacketThatFailsToDecodePlaysAsSilenceOfItsLengthAndPlayoutGoesOn() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(5_000)
        let rig = try EngineRig(configuration: configuration)
        // Garbage in place of one packet's payload, at its proper place on the timeline.
        let garbage = StreamPacket(
            payload: [UInt8](repeating: 0xFF, count: 320),
            connectionTimestamp: rig.feed.packet(rig.nextPacket).connectionTimestamp,
            durationFrames: 960)
        rig.engine.ingest(garbage, now: rig.feed.liveTime(of: rig.nextPacket))
        rig.run(milliseconds: 20)  // the rig's own packet for that slot is a duplicate now
        rig.run(milliseconds: 8_000)
        let status = rig.engine.status(at: rig.now)
        #expect(status.statistics.decodeErrors == 1)
        #expect(status.state == .playing)
        let silences = SignalChecks.silentRuns(rig.output.samples).filter { $0.start > 0 }
        try #require(silences.count == 1)
        #expect(silences[0].frames == 960)
    }

    @Test func holdingThirtyMinutesOf128kbpsCostsLessThan1point1MBPerMinute() throws {
        var configuration = EngineConfiguration()
        configuration.maxDelay = .milliseconds(1_800_000)
        let engine = try PlaybackEngine(configuration: configuration, decoderFactory: { ToneDecoder() })
        let feed = ToneFeed(packetFrames: 1_152, packetBytes: 384)  // 24 ms, 128 kbps
        engine.start(now: .zero)
        engine.connectionOpened(now: .zero)
        let packets = Int64(31 * 60 * 1000 / 24)
        feed.deliver(0..<packets, to: engine)
        var period = [Float](repeating: 0, count: 1_920)
        period.withUnsafeMutableBufferPointer {
            engine.render(into: $0, now: feed.liveTime(of: packets - 1), outputDelayFrames: 0)
        }
        let status = engine.status(at: feed.liveTime(of: packets - 1))
        #expect(status.availableDelay.milliseconds == 1_800_000)
        let megabytesPerMinute = Double(status.delayBufferBytes) / 1e6 / 30
        #expect(megabytesPerMinute <= 1.1)
        #expect(megabytesPerMinute >= 0.96, "the payload alone is 0.96 MB per minute")
    }
}
