/// A length of time, in nanoseconds: how far two `Instant`s are apart, a window, a
/// timeout, a wait — so that a value carries its unit instead of its name (`windowNs`) and
/// no caller multiplies by 1_000_000_000 by hand. 64-bit nanoseconds reach 292 years.
public struct TimeAmount: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = TimeAmount(nanoseconds: 0)

    public static func microseconds(_ microseconds: Int64) -> TimeAmount {
        TimeAmount(nanoseconds: microseconds * 1_000)
    }
    public static func milliseconds(_ milliseconds: Int64) -> TimeAmount {
        TimeAmount(nanoseconds: milliseconds * Instant.nanosecondsPerMillisecond)
    }
    public static func seconds(_ seconds: Int64) -> TimeAmount {
        TimeAmount(nanoseconds: seconds * Instant.nanosecondsPerSecond)
    }
    public static func minutes(_ minutes: Int64) -> TimeAmount { .seconds(minutes * 60) }
    public static func hours(_ hours: Int64) -> TimeAmount { .minutes(hours * 60) }
    public static func days(_ days: Int64) -> TimeAmount { .hours(days * 24) }

    /// Whole milliseconds, rounded towards zero.
    public var milliseconds: Int64 { nanoseconds / Instant.nanosecondsPerMillisecond }
    /// To the nearest millisecond, halves away from zero (a measured interval said in ms).
    public var roundedMilliseconds: Int64 {
        let half = Instant.nanosecondsPerMillisecond / 2
        return (nanoseconds + (nanoseconds < 0 ? -half : half)) / Instant.nanosecondsPerMillisecond
    }
    /// Whole seconds, rounded towards zero (a cookie's Max-Age, a window shown).
    public var wholeSeconds: Int64 { nanoseconds / Instant.nanosecondsPerSecond }
    /// Whole milliseconds, rounded up: a wait that ends no earlier than this amount (poll's).
    public var millisecondsRoundedUp: Int64 {
        (nanoseconds + Instant.nanosecondsPerMillisecond - 1) / Instant.nanosecondsPerMillisecond
    }
    /// Whole seconds, rounded up: what "try again in N s" may promise without being early.
    public var secondsRoundedUp: Int64 {
        nanoseconds <= 0 ? wholeSeconds : (nanoseconds - 1) / Instant.nanosecondsPerSecond + 1
    }
    /// Frames of the internal format in this amount, rounded towards zero.
    public var audioFrames: Int64 { Instant.zero.advanced(byNanoseconds: nanoseconds).frames(since: .zero) }
    /// `frames` frames of the internal format to the millisecond below: how the engine
    /// reports a delay (whole ms, as the doors show it).
    public static func wholeMilliseconds(frames: Int64) -> TimeAmount {
        .milliseconds(AudioFormat.milliseconds(frames: frames))
    }
    /// How long, whichever way: the amount without its sign.
    public var magnitude: TimeAmount { TimeAmount(nanoseconds: abs(nanoseconds)) }
    /// Seconds with their fraction.
    public var seconds: Double { Double(nanoseconds) / Double(Instant.nanosecondsPerSecond) }

    public var description: String { "\(seconds)s" }

    public static func < (a: TimeAmount, b: TimeAmount) -> Bool { a.nanoseconds < b.nanoseconds }
    public static func + (a: TimeAmount, b: TimeAmount) -> TimeAmount {
        TimeAmount(nanoseconds: a.nanoseconds + b.nanoseconds)
    }
    public static func - (a: TimeAmount, b: TimeAmount) -> TimeAmount {
        TimeAmount(nanoseconds: a.nanoseconds - b.nanoseconds)
    }
    public static func * (count: Int64, amount: TimeAmount) -> TimeAmount {
        TimeAmount(nanoseconds: count * amount.nanoseconds)
    }
}

extension Instant {
    /// This instant moved by `amount`.
    public static func + (instant: Instant, amount: TimeAmount) -> Instant {
        instant.advanced(byNanoseconds: amount.nanoseconds)
    }
    public static func - (instant: Instant, amount: TimeAmount) -> Instant {
        instant.advanced(byNanoseconds: -amount.nanoseconds)
    }
    /// How long after `earlier` this instant is (negative when it is before).
    public static func - (later: Instant, earlier: Instant) -> TimeAmount {
        TimeAmount(nanoseconds: later.nanoseconds - earlier.nanoseconds)
    }
}
