/// Turns one button's edges into gestures: debounced on the edges' own timestamps, then
/// short press, long press, double press and hold-to-repeat.
///
/// Debouncing: a level counts once it has held for `debounceNs` with no further edge, and
/// the change is dated at the edge that started that steady level. Gestures:
/// - a release before `longPressNs` is a press — or, when a double press is configured,
///   waits `doublePressNs` for a second press that makes it a double press;
/// - holding for `longPressNs` is a long press, reported while still held;
/// - with hold-to-repeat, holding for `longPressNs` starts repeats every `repeatNs`
///   (instead of a long press).
/// Timers need `advance(to:)` to be called when nothing happens (the event loop's poll
/// timeout comes from `nextDeadline`).
public struct ButtonDecoder: Sendable {
    public enum Gesture: Sendable, Equatable {
        case press, longPress, doublePress, repeatTick
    }

    public struct Timing: Sendable, Equatable {
        public var debounceNs: Int64 = 10_000_000
        public var longPressNs: Int64 = 800_000_000
        public var doublePressNs: Int64 = 300_000_000
        public var repeatNs: Int64 = 150_000_000
        public init() {}
    }

    public let timing: Timing
    /// Whether double presses are told apart (costs a short press `doublePressNs` of latency).
    public let detectsDoublePress: Bool
    /// Whether holding repeats instead of making a long press.
    public let repeatsWhileHeld: Bool
    /// The electrical level that means "pressed".
    public let activeHigh: Bool

    private var rawPressed = false
    private var rawSince: Int64 = 0
    private var pressed = false
    private var pressedAt: Int64 = 0
    private var longPressDone = false
    private var nextRepeat: Int64?
    /// A short press waiting to see whether a second one follows.
    private var pendingPressSince: Int64?

    public init(timing: Timing = Timing(), activeHigh: Bool, detectsDoublePress: Bool, repeatsWhileHeld: Bool) {
        self.timing = timing
        self.activeHigh = activeHigh
        self.detectsDoublePress = detectsDoublePress
        self.repeatsWhileHeld = repeatsWhileHeld
    }

    /// An edge on the button's line; returns the gestures completed up to its time.
    public mutating func edge(high: Bool, at nanoseconds: Int64) -> [(Gesture, Int64)] {
        var gestures = advance(to: nanoseconds)
        let isPressed = high == activeHigh
        if isPressed != rawPressed {
            rawPressed = isPressed
            rawSince = nanoseconds
        }
        gestures += advance(to: nanoseconds)
        return gestures
    }

    /// Lets time pass to `now`: debounce settles, timers fire. Returns gestures with the
    /// time each happened.
    public mutating func advance(to now: Int64) -> [(Gesture, Int64)] {
        var gestures: [(Gesture, Int64)] = []
        // Timers that fall before a settling level change happen first.
        let settle: Int64? = rawPressed != pressed ? rawSince + timing.debounceNs : nil
        let horizon = min(now, settle ?? now)
        fireTimers(until: horizon, into: &gestures)
        if let settle, settle <= now {
            pressed = rawPressed
            if pressed { didPress(at: rawSince, into: &gestures) } else { didRelease(at: rawSince, into: &gestures) }
            fireTimers(until: now, into: &gestures)
        }
        return gestures
    }

    /// When `advance` next has something to do, if anything.
    public var nextDeadline: Int64? {
        var deadlines: [Int64] = []
        if rawPressed != pressed { deadlines.append(rawSince + timing.debounceNs) }
        if pressed && !longPressDone && nextRepeat == nil { deadlines.append(pressedAt + timing.longPressNs) }
        if pressed, let nextRepeat { deadlines.append(nextRepeat) }
        if let pending = pendingPressSince { deadlines.append(pending + timing.doublePressNs) }
        return deadlines.min()
    }

    private mutating func didPress(at time: Int64, into gestures: inout [(Gesture, Int64)]) {
        pressedAt = time
        longPressDone = false
        nextRepeat = nil
        if let pending = pendingPressSince, time - pending <= timing.doublePressNs {
            pendingPressSince = nil
            gestures.append((.doublePress, time))
            longPressDone = true  // this press is spent
        }
    }

    private mutating func didRelease(at time: Int64, into gestures: inout [(Gesture, Int64)]) {
        defer { nextRepeat = nil }
        guard !longPressDone, nextRepeat == nil else { return }
        if detectsDoublePress {
            pendingPressSince = pressedAt
        } else {
            gestures.append((.press, time))
        }
    }

    private mutating func fireTimers(until now: Int64, into gestures: inout [(Gesture, Int64)]) {
        if let pending = pendingPressSince, pending + timing.doublePressNs <= now,
            !pressed || pressedAt > pending + timing.doublePressNs
        {
            pendingPressSince = nil
            gestures.append((.press, pending + timing.doublePressNs))
        }
        guard pressed, !longPressDone || nextRepeat != nil else { return }
        let threshold = pressedAt + timing.longPressNs
        if nextRepeat == nil, threshold <= now {
            if repeatsWhileHeld {
                nextRepeat = threshold
            } else {
                longPressDone = true
                gestures.append((.longPress, threshold))
            }
        }
        while let tick = nextRepeat, tick <= now {
            gestures.append((.repeatTick, tick))
            nextRepeat = tick + timing.repeatNs
        }
    }
}
