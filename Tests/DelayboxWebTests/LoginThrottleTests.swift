import DelayboxUnits
import DelayboxWeb
import Testing

/// Issue 66: the login throttle counts a guess in the same step as it checks it, so guesses
/// sent in parallel (each hashed while the others wait) cannot all pass the check.
@Suite(.timeLimit(.minutes(10))) struct LoginThrottleTests {
    @Test func parallelGuessesPassTheCheckFiveTimesAtMost() {
        var throttle = LoginThrottle()
        let now = Instant.zero + .seconds(100)
        // Ten guesses arrive before any of their hashes is done.
        let admitted = (0..<10).filter { _ in throttle.attempt(network: "192.0.2.7", now: now) == nil }.count
        #expect(admitted == LoginThrottle.perNetwork)
        #expect(throttle.attempt(network: "192.0.2.7", now: now + .minutes(14)) != nil)
        #expect(throttle.attempt(network: "192.0.2.7", now: now + .minutes(15)) == nil, "a quarter of an hour")
        #expect(throttle.attempt(network: "192.0.2.8", now: now) == nil, "a neighbour is not locked out")
    }

    @Test func aRightPasswordTakesItsAttemptBack() {
        var throttle = LoginThrottle()
        let now = Instant.zero + .seconds(100)
        for _ in 0..<30 {
            #expect(throttle.attempt(network: "192.0.2.9", now: now) == nil)
            throttle.succeeded(network: "192.0.2.9")
        }
        // Thirty right passwords in a minute counted as no failure, here or for everyone.
        #expect(throttle.wait(network: "192.0.2.10", now: now) == nil)
    }
}
