import DelayboxEngine
import DelayboxSimulation
import Testing

@testable import DelayboxAudio

/// The origin of the ring's timeline from measurements that are late by up to a tick of
/// the device's position (4 ms: snd-aloop's jiffy at 250 Hz), in virtual time.
@Suite(.timeLimit(.minutes(10))) struct OutputOriginEstimateTests {
    /// A tick of the device's position.
    static let tick: Int64 = 4_000_000
    /// A write every 40 ms (half a four-period buffer), for `seconds`; `origin(at:)` the
    /// true origin, each measurement late by a pseudo-random part of a tick. Returns the
    /// estimates after the first `settle` seconds, as offsets from the true origin (ns).
    static func run(
        seconds: Int64, settle: Int64 = 2, origin: (Instant) -> Instant,
        restartAt: Instant? = nil
    ) -> [Int64] {
        var estimate = OutputOriginEstimate()
        var generator = SplitMix64(seed: 7)
        var offsets: [Int64] = []
        var time = Instant.seconds(100)
        let end = time.advanced(byNanoseconds: seconds * 1_000_000_000)
        let settled = time.advanced(byNanoseconds: settle * 1_000_000_000)
        var restarted = true
        while time < end {
            let late = Int64(generator.next() % UInt64(tick))
            let restart = restarted || restartAt.map { time >= $0 && time < $0.advanced(byMilliseconds: 40) } == true
            let estimated = estimate.measure(
                origin(time).advanced(byNanoseconds: late), at: time, restarted: restart)
            restarted = false
            if time >= settled { offsets.append(estimated.nanoseconds - origin(time).nanoseconds) }
            time = time.advanced(byMilliseconds: 40)
        }
        return offsets
    }

    @Test func measurementsLateByUpToATickGiveAnOriginWithinAFifthOfOne() {
        let offsets = Self.run(seconds: 60) { _ in .seconds(3) }
        // Taken as they came, they would be anywhere in the tick (0…4 ms).
        #expect(offsets.min()! >= 0 && offsets.max()! <= Self.tick / 5, "\(offsets.min()!)…\(offsets.max()!) ns")
    }

    @Test func aSlowDACsOriginIsFollowedWithTheWindowsLag() {
        // 100 ppm slow: each ring frame is heard 100 µs a second later than the last
        // second's.
        let offsets = Self.run(seconds: 60) { time in .seconds(3).advanced(byNanoseconds: time.nanoseconds / 10_000) }
        let lag = OutputOriginEstimate.window.nanoseconds / 10_000
        #expect(offsets.min()! >= -lag - 1 && offsets.max()! <= Self.tick / 5, "\(offsets.min()!)…\(offsets.max()!) ns")
    }

    @Test func aFastDACsOriginIsFollowedAtOnce() {
        let offsets = Self.run(seconds: 60) { time in .seconds(3).advanced(byNanoseconds: -time.nanoseconds / 10_000) }
        #expect(offsets.min()! >= 0 && offsets.max()! <= Self.tick / 5, "\(offsets.min()!)…\(offsets.max()!) ns")
    }

    /// A step later (silence went to the device): taken at the restart that comes with it,
    /// and without one once it has lasted the window — never held for longer.
    @Test(arguments: [true, false])
    func aStepLaterIsTakenAtTheRestartOrAfterTheWindow(restart: Bool) {
        let step = Instant.seconds(130)
        let offsets = Self.run(
            seconds: 60, origin: { time in time < step ? .seconds(3) : .seconds(3.02) },
            restartAt: restart ? step : nil)
        // Each estimate's offset, from the step on: -20 ms while the old measurements hold.
        let after = offsets.suffix(from: (30 - 2) * 25)
        let held = after.prefix { $0 < -Self.tick }.count
        #expect(held == (restart ? 0 : 50), "estimates held at the old origin: \(held)")
        #expect(after.dropFirst(held).allSatisfy { $0 >= 0 && $0 <= Self.tick })
    }

    /// More measurements than it holds in a window (a write every 5 ms): the last
    /// `capacity` count, and the estimate stays put.
    @Test func moreMeasurementsThanItHoldsStillGiveTheEarliest() {
        var estimate = OutputOriginEstimate()
        var time = Instant.seconds(10)
        let origin = Instant.seconds(1)
        var last = Instant.zero
        for index in 0..<1000 {
            // Late by 0, 1, …, 199 µs in turn: the earliest of the last 128 is at most 128
            // µs late.
            last = estimate.measure(
                origin.advanced(byNanoseconds: Int64(index % 200) * 1000), at: time, restarted: index == 0)
            time = time.advanced(byMilliseconds: 5)
            #expect(last.nanoseconds - origin.nanoseconds <= max(0, Int64(index % 200) - 127) * 1000)
        }
    }
}
