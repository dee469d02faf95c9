import DelayboxEngine
import DelayboxSimulation
import Testing

@Suite(.timeLimit(.minutes(10))) struct ReconnectBackoffTests {
    @Test func growsExponentiallyWithJitterUpToTheCapAndResets() {
        var backoff = ReconnectBackoff(initial: .milliseconds(250), cap: .seconds(5), jitter: 0.2)
        var random = SplitMix64(seed: 3)
        let waits = (0..<8).map { _ in backoff.nextDelay(using: &random).milliseconds }
        #expect((200...300).contains(waits[0]))
        #expect((400...600).contains(waits[1]))
        #expect((800...1_200).contains(waits[2]))
        #expect(waits.suffix(3).allSatisfy { (4_000...5_000).contains($0) }, "capped")
        #expect(Set(waits.suffix(3)).count > 1, "jittered")
        backoff.reset()
        #expect((200...300).contains(backoff.nextDelay(using: &random).milliseconds))
    }

    /// A connection that ends within 10 s of delivering (a recording read at network speed,
    /// a server that closes at once) is a failure: the waits grow; one that held resets them.
    @Test func onlyAConnectionThatHeldResetsTheWaits() {
        var backoff = ReconnectBackoff(initial: .milliseconds(250), cap: .seconds(30), jitter: 0)
        var random = SplitMix64(seed: 1)
        var waits: [Int64] = []
        for _ in 0..<5 {
            backoff.connectionEnded(after: .milliseconds(800))
            waits.append(backoff.nextDelay(using: &random).milliseconds)
        }
        #expect(waits == [250, 500, 1_000, 2_000, 4_000], "\(waits)")
        backoff.connectionEnded(after: ReconnectBackoff.stableConnection)
        #expect(backoff.nextDelay(using: &random).milliseconds == 250)
    }

    /// A recording read to its end waits the longest from then on (issue 60: a podcast
    /// behind a .pls was fetched 53 times in 8 s, then ~8 times in its first minute).
    @Test func aRecordingWaitsTheLongest() {
        var backoff = ReconnectBackoff(initial: .milliseconds(250), cap: .seconds(30), jitter: 0)
        var random = SplitMix64(seed: 2)
        backoff.connectionEnded(after: .milliseconds(600))
        backoff.recordingEnded()
        #expect(backoff.nextDelay(using: &random) == .seconds(30))
        #expect(backoff.nextDelay(using: &random) == .seconds(30))
        backoff.connectionEnded(after: ReconnectBackoff.stableConnection)
        #expect(backoff.nextDelay(using: &random) == .milliseconds(250), "a link that turned live")
    }
}
