import DelayboxControls
import DelayboxUnits
import Testing

@Suite(.timeLimit(.minutes(10))) struct ButtonDecoderTests {
    /// Presses (active low) from `down` to `up` (ms), each edge chattering for 2 ms.
    func press(_ decoder: inout ButtonDecoder, down: Int64, up: Int64) -> [(ButtonDecoder.Gesture, Instant)] {
        var gestures: [(ButtonDecoder.Gesture, Instant)] = []
        for (start, level) in [(down, false), (up, true)] {
            for chatter in 0..<4 {
                gestures += decoder.edge(
                    high: chatter % 2 == 0 ? level : !level,
                    at: .milliseconds(start) + Int64(chatter) * .microseconds(500))
            }
            gestures += decoder.edge(high: level, at: .milliseconds(start + 2))
        }
        return gestures
    }

    @Test func aBouncyShortPressIsOnePress() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: false, repeatsWhileHeld: false)
        var gestures = press(&decoder, down: 100, up: 250)
        gestures += decoder.advance(to: .milliseconds(2_000))
        #expect(gestures.map(\.0) == [.press])
        #expect(abs((gestures[0].1 - Instant.milliseconds(252)).nanoseconds) <= 1_000_000, "dated at the release")
    }

    @Test func aLongPressFiresWhileHeldAndTheReleaseAddsNothing() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: false, repeatsWhileHeld: false)
        var gestures = decoder.edge(high: false, at: .milliseconds(100))
        gestures += decoder.advance(to: .milliseconds(899))
        #expect(gestures.isEmpty, "not yet")
        gestures += decoder.advance(to: .milliseconds(950))
        #expect(gestures.map(\.0) == [.longPress] && gestures[0].1 == .milliseconds(900), "\(gestures)")
        gestures += decoder.edge(high: true, at: .milliseconds(1_500))
        gestures += decoder.advance(to: .milliseconds(3_000))
        #expect(gestures.count == 1)
    }

    @Test func twoQuickPressesAreADoublePressAndOneWaitsForTheWindow() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: true, repeatsWhileHeld: false)
        var gestures = press(&decoder, down: 100, up: 180)
        gestures += press(&decoder, down: 300, up: 380)
        gestures += decoder.advance(to: .milliseconds(2_000))
        #expect(gestures.map(\.0) == [.doublePress])
        gestures = press(&decoder, down: 3_000, up: 3_080)
        gestures += decoder.advance(to: .milliseconds(3_290))
        #expect(gestures.isEmpty, "waiting to see if a second press comes")
        gestures += decoder.advance(to: .milliseconds(3_310))  // 300 ms after the first press settled
        #expect(gestures.map(\.0) == [.press])
    }

    @Test func holdingRepeatsInsteadOfALongPress() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: false, repeatsWhileHeld: true)
        var gestures = decoder.edge(high: false, at: .zero)
        gestures += decoder.advance(to: .milliseconds(1_400))
        gestures += decoder.edge(high: true, at: .milliseconds(1_400))
        gestures += decoder.advance(to: .milliseconds(3_000))
        // Repeats at 800, 950, 1100, 1250, 1400 ms; no press at the release.
        #expect(gestures.map(\.0) == Array(repeating: .repeatTick, count: 5), "\(gestures)")
    }

    @Test func aSpikeShorterThanTheDebounceIsIgnored() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: false, repeatsWhileHeld: false)
        var gestures = decoder.edge(high: false, at: .milliseconds(100))
        gestures += decoder.edge(high: true, at: .milliseconds(104))
        gestures += decoder.advance(to: .milliseconds(2_000))
        #expect(gestures.isEmpty)
    }

    @Test func theNextDeadlineIsWhenSomethingIsDue() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: false, repeatsWhileHeld: false)
        #expect(decoder.nextDeadline == nil, "idle: the event loop may sleep until an edge")
        _ = decoder.edge(high: false, at: .milliseconds(100))
        #expect(decoder.nextDeadline == .milliseconds(110), "the debounce")
        _ = decoder.advance(to: .milliseconds(120))
        #expect(decoder.nextDeadline == .milliseconds(900), "the long press")
    }
}
