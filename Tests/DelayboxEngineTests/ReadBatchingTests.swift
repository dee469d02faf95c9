import DelayboxEngine
import Testing

/// The stream thread's pauses, against a simulated Icecast connection in virtual time:
/// a 128 kbps stream sent as a TCP segment every 70 ms, read as 418-byte MP3 packets
/// through a reader's buffer the way FFmpeg reads (a read that needs more bytes takes all
/// the kernel holds, or waits for the next segment).
@Suite(.timeLimit(.minutes(10))) struct ReadBatchingTests {
    struct Read {
        /// When the packet was read (ns).
        var at: Int64
        /// When the last byte of it arrived (ns).
        var lastByteArrived: Int64
    }

    /// Reads `seconds` of the stream; returns each packet's read and the thread's wake-ups.
    static func simulate(seconds: Int64, batching: ReadBatching?) -> (reads: [Read], wakeups: Int) {
        let segmentBytes = 1_120, segmentNs: Int64 = 70_000_000, packetBytes = 418
        var batching = batching ?? ReadBatching(pause: .zero)
        var now: Int64 = 0, wakeups = 0
        var received = 0, parsed = 0  // bytes taken from the kernel, bytes parsed into packets
        var reads: [Read] = []
        func arrivedBytes(by time: Int64) -> Int { Int(time / segmentNs + 1) * segmentBytes }
        while now < seconds * 1_000_000_000 {
            if received - parsed < packetBytes {
                if arrivedBytes(by: now) <= received {
                    // Nothing queued: the read sleeps until the next segment.
                    now = (now / segmentNs + 1) * segmentNs
                    wakeups += 1
                }
                received = arrivedBytes(by: now)
                continue
            }
            parsed += packetBytes
            // The segment that completed this packet.
            let lastByteArrived = Int64((parsed - 1) / segmentBytes) * segmentNs
            reads.append(Read(at: now, lastByteArrived: lastByteArrived))
            let pause = batching.pause(
                now: Instant(nanoseconds: now), connected: .zero, bufferedBytes: received - parsed,
                packetBytes: packetBytes)
            if pause > 0 {
                now += pause
                wakeups += 1
            }
        }
        return (reads, wakeups)
    }

    @Test func aLiveStreamIsReadInBatchesAFewTimesASecond() {
        let plain = Self.simulate(seconds: 70, batching: nil)
        let batched = Self.simulate(
            seconds: 70, batching: ReadBatching(pause: .milliseconds(400), settle: .seconds(10)))
        // Per second over the last minute (the first 10 s are not paused).
        let plainRate = Double(plain.wakeups) / 70
        let wakeupsAfterSettling = batched.wakeups - plain.wakeups * 10 / 70
        #expect(plainRate > 14, "one wake-up per segment: \(plainRate)")
        #expect(Double(wakeupsAfterSettling) / 60 < 5, "\(wakeupsAfterSettling) wake-ups in a minute")
        func arrivedBefore69s(_ reads: [Read]) -> Int { reads.filter { $0.lastByteArrived < 69_000_000_000 }.count }
        #expect(arrivedBefore69s(batched.reads) == arrivedBefore69s(plain.reads), "every packet is read")
    }

    @Test func packetsAreStampedNoEarlierThanTheyArrivedAndSomeOnTheMoment() {
        let batched = Self.simulate(
            seconds: 70, batching: ReadBatching(pause: .milliseconds(400), settle: .seconds(10)))
        let lateness = batched.reads.map { $0.at - $0.lastByteArrived }
        #expect(lateness.allSatisfy { $0 >= 0 })
        #expect(lateness.max()! <= 570_000_000, "at most the longest pause and a segment late")
        // The first 10 s: every read as it arrives (a reconnect's placement needs them).
        let settling = batched.reads.filter { $0.at < 10_000_000_000 }
        #expect(settling.allSatisfy { $0.at - $0.lastByteArrived < 70_000_000 })
        #expect(settling.last!.at > 9_900_000_000)
        // Afterwards, every second still has packets read on the moment their bytes came.
        for second in 10..<70 {
            let inSecond = batched.reads.filter { $0.at / 1_000_000_000 == second }
            #expect(inSecond.contains { $0.at == $0.lastByteArrived }, "second \(second)")
        }
    }

    @Test func aBufferedPacketIsReadWithoutAPause() {
        var batching = ReadBatching(pause: .milliseconds(400), settle: .zero)
        let now = Instant(nanoseconds: 20_000_000_000)
        #expect(batching.pause(now: now, connected: .zero, bufferedBytes: 900, packetBytes: 418) == 0)
        let pauses = 300_000_000...500_000_000 as ClosedRange<Int64>
        #expect(pauses.contains(batching.pause(now: now, connected: .zero, bufferedBytes: 100, packetBytes: 418)))
        #expect(
            batching.pause(now: now, connected: .zero, bufferedBytes: 100, packetBytes: 418) == 0,
            "then a read on the network")
        #expect(pauses.contains(batching.pause(now: now, connected: .zero, bufferedBytes: 100, packetBytes: 418)))
    }

    /// The pauses vary at random within ±25 % of 400 ms: reads at a fixed period sample a
    /// source that sends at a fixed period at a slowly drifting phase, and the station's
    /// clock, fitted from those reads, saw the beat as a rate (issue 67).
    @Test func pausesVaryAtRandomSoThatNoBeatIsSampled() {
        var batching = ReadBatching(pause: .milliseconds(400), settle: .zero)
        let pauses = (0..<1_000).map { _ in batching.nextPause() }
        #expect(pauses.min()! >= 300_000_000 && pauses.max()! <= 500_000_000)
        #expect(Set(pauses).count > 900, "\(Set(pauses).count) different pauses")
        let mean = Double(pauses.reduce(0, +)) / 1_000 / 1e6
        #expect(abs(mean - 400) < 10, "mean \(mean) ms")
        // Successive pauses are not alike: their correlation is near none.
        let centred = pauses.map { Double($0) / 1e6 - mean }
        let lagged = zip(centred, centred.dropFirst()).map { $0 * $1 }.reduce(0, +)
        let squares = centred.map { $0 * $0 }.reduce(0, +)
        #expect(abs(lagged / squares) < 0.1)
    }
}
