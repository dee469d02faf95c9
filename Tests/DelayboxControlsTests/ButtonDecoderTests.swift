import DelayboxControls
import Testing

@Suite(.timeLimit(.minutes(10))) struct ButtonDecoderTests {
    static let ms: Int64 = 1_000_000

    /// Presses (active low) from `down` to `up` (ms), each edge chattering for 2 ms.
    func press(_ decoder: inout ButtonDecoder, down: Int64, up: Int64) -> [(ButtonDecoder.Gesture, Int64)] {
        var gestures: [(ButtonDecoder.Gesture, Int64)] = []
        for (start, level) in [(down, false), (up, true)] {
            for chatter in 0..<4 {
                gestures += decoder.edge(
                    high: chatter % 2 == 0 ? level : !level, at: (start * Self.ms) + Int64(chatter) * 500_000)
            }
            gestures += decoder.edge(high: level, at: start * Self.ms + 2 * Self.ms)
        }
        return gestures
    }

    @Test func aBouncyShortPressIsOnePress() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: false, repeatsWhileHeld: false)
        var gestures = press(&decoder, down: 100, up: 250)
        gestures += decoder.advance(to: 2_000 * Self.ms)
        #expect(gestures.map(\.0) == [.press])
        #expect(abs(gestures[0].1 - 252 * Self.ms) <= Self.ms, "dated at the release")
    }

    @Test func aLongPressFiresWhileHeldAndTheReleaseAddsNothing() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: false, repeatsWhileHeld: false)
        var gestures = decoder.edge(high: false, at: 100 * Self.ms)
        gestures += decoder.advance(to: 899 * Self.ms)
        #expect(gestures.isEmpty, "not yet")
        gestures += decoder.advance(to: 950 * Self.ms)
        #expect(gestures.map(\.0) == [.longPress] && gestures[0].1 == 900 * Self.ms, "\(gestures)")
        gestures += decoder.edge(high: true, at: 1_500 * Self.ms)
        gestures += decoder.advance(to: 3_000 * Self.ms)
        #expect(gestures.count == 1)
    }

    @Test func twoQuickPressesAreADoublePressAndOneWaitsForTheWindow() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: true, repeatsWhileHeld: false)
        var gestures = press(&decoder, down: 100, up: 180)
        gestures += press(&decoder, down: 300, up: 380)
        gestures += decoder.advance(to: 2_000 * Self.ms)
        #expect(gestures.map(\.0) == [.doublePress])
        gestures = press(&decoder, down: 3_000, up: 3_080)
        gestures += decoder.advance(to: 3_290 * Self.ms)
        #expect(gestures.isEmpty, "waiting to see if a second press comes")
        gestures += decoder.advance(to: 3_310 * Self.ms)  // 300 ms after the first press settled
        #expect(gestures.map(\.0) == [.press])
    }

    @Test func holdingRepeatsInsteadOfALongPress() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: false, repeatsWhileHeld: true)
        var gestures = decoder.edge(high: false, at: 0)
        gestures += decoder.advance(to: 1_400 * Self.ms)
        gestures += decoder.edge(high: true, at: 1_400 * Self.ms)
        gestures += decoder.advance(to: 3_000 * Self.ms)
        // Repeats at 800, 950, 1100, 1250, 1400 ms; no press at the release.
        #expect(gestures.map(\.0) == Array(repeating: .repeatTick, count: 5), "\(gestures)")
    }

    @Test func aSpikeShorterThanTheDebounceIsIgnored() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: false, repeatsWhileHeld: false)
        var gestures = decoder.edge(high: false, at: 100 * Self.ms)
        gestures += decoder.edge(high: true, at: 104 * Self.ms)
        gestures += decoder.advance(to: 2_000 * Self.ms)
        #expect(gestures.isEmpty)
    }

    @Test func theNextDeadlineIsWhenSomethingIsDue() {
        var decoder = ButtonDecoder(activeHigh: false, detectsDoublePress: false, repeatsWhileHeld: false)
        #expect(decoder.nextDeadline == nil, "idle: the event loop may sleep until an edge")
        _ = decoder.edge(high: false, at: 100 * Self.ms)
        #expect(decoder.nextDeadline == 110 * Self.ms, "the debounce")
        _ = decoder.advance(to: 120 * Self.ms)
        #expect(decoder.nextDeadline == 900 * Self.ms, "the long press")
    }
}
