import DelayboxUnits
import Foundation
import Testing

/// The time vocabulary's lengths: units in, units out, and instants moved by them.
@Suite(.timeLimit(.minutes(10))) struct TimeAmountTests {
    @Test func unitsGoInAndComeOutExactly() {
        #expect(TimeAmount.days(30).nanoseconds == 30 * 86_400 * 1_000_000_000)
        #expect(TimeAmount.minutes(15) == 900 * TimeAmount.seconds(1))
        #expect(
            TimeAmount.milliseconds(1_500).wholeSeconds == 1 && TimeAmount.milliseconds(1_500).milliseconds == 1_500)
        #expect(TimeAmount.milliseconds(1_500).seconds == 1.5)
    }

    /// "Try again in N s" is never early: any part of a second counts as a whole one.
    @Test func secondsRoundedUpNeverPromiseTooEarly() {
        #expect(TimeAmount(nanoseconds: 1).secondsRoundedUp == 1)
        #expect(TimeAmount.seconds(2).secondsRoundedUp == 2)
        #expect((TimeAmount.seconds(2) + TimeAmount(nanoseconds: 1)).secondsRoundedUp == 3)
        #expect(TimeAmount.zero.secondsRoundedUp == 0)
    }

    /// A poll's timeout in whole ms does not wake before the deadline it waits for (a
    /// button's debounce, a remote key's long press): any part of a millisecond counts.
    @Test func millisecondsRoundedUpNeverWakeEarly() {
        #expect(TimeAmount(nanoseconds: 1).millisecondsRoundedUp == 1)
        #expect(TimeAmount.microseconds(2_500).millisecondsRoundedUp == 3)
        #expect(TimeAmount.milliseconds(50).millisecondsRoundedUp == 50)
        #expect(TimeAmount.zero.millisecondsRoundedUp == 0)
    }

    /// Tap-to-sync's two taps, a measured interval, said to the nearest millisecond either way.
    @Test func roundedMillisecondsGoToTheNearestWithHalvesAwayFromZero() {
        #expect(TimeAmount.microseconds(1_499).roundedMilliseconds == 1)
        #expect(TimeAmount.microseconds(1_500).roundedMilliseconds == 2)
        #expect(TimeAmount.microseconds(-1_500).roundedMilliseconds == -2)
        #expect(TimeAmount.microseconds(-1_499).roundedMilliseconds == -1)
    }

    /// A duration a file or an answer carries in ms (`InMilliseconds`) reads back as the same
    /// amount; a number no `TimeAmount` holds (a stranger's file) is refused, not trapped on.
    @Test func aDurationInMillisecondsReadsBackAndANumberBeyondAnyIsRefused() throws {
        let text = String(decoding: try JSONEncoder().encode(Saved(delay: .milliseconds(42_300))), as: UTF8.self)
        #expect(text == #"{"delay":42300}"#)
        #expect(try JSONDecoder().decode(Saved.self, from: Data(text.utf8)) == Saved(delay: .milliseconds(42_300)))
        let longest = try JSONDecoder().decode(Saved.self, from: Data(#"{"delay":-9223372036854}"#.utf8))
        #expect(longest.delay == .milliseconds(-9_223_372_036_854))
        for beyond in ["9223372036855", "-9223372036855", "9223372036854775807", "-9223372036854775808"] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(Saved.self, from: Data(#"{"delay":\#(beyond)}"#.utf8))
            }
        }
    }

    @Test func instantsMoveByAmountsAndTheirDifferenceIsOne() {
        let start = Instant.milliseconds(250)
        let later = start + .minutes(1)
        #expect(later - start == .seconds(60) && start - later == .seconds(-60))
        #expect(later - .minutes(1) == start && later > start)
    }
}

/// A value with a duration kept in milliseconds, as the state file's `delayMs`.
private struct Saved: Codable, Equatable {
    @InMilliseconds var delay: TimeAmount
}
