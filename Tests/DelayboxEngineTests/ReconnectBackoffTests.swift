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
}
