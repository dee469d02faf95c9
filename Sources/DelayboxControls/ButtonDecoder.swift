import DelayboxUnits

/// Turns one button's edges into gestures: debounced on the edges' own timestamps, then
/// short press, long press, double press and hold-to-repeat.
///
/// Debouncing: a level counts once it has held for `debounce` with no further edge, and
/// the change is dated at the edge that started that steady level. Gestures:
/// - a release before `longPress` is a press — or, when a double press is configured,
///   waits `doublePress` for a second press that makes it a double press;
/// - holding for `longPress` is a long press, reported while still held;
/// - with hold-to-repeat, holding for `longPress` starts repeats every `repeatInterval`
///   (instead of a long press).
/// Timers need `advance(to:)` to be called when nothing happens (the event loop's poll
/// timeout comes from `nextDeadline`).
public struct ButtonDecoder: Sendable {
    public enum Gesture: Sendable, Equatable {
        case press, longPress, doublePress, repeatTick
    }

    public struct Timing: Sendable, Equatable {
        public var debounce: TimeAmount = .milliseconds(10)
        public var longPress: TimeAmount = .milliseconds(800)
        public var doublePress: TimeAmount = .milliseconds(300)
        public var repeatInterval: TimeAmount = .milliseconds(150)
        public init() {}
    }

    public let timing: Timing
    /// Whether double presses are told apart (costs a short press `doublePress` of latency).
    public let detectsDoublePress: Bool
    /// Whether holding repeats instead of making a long press.
    public let repeatsWhileHeld: Bool
    /// The electrical level that means "pressed".
    public let activeHigh: Bool

    private var rawPressed = false
    private var rawSince = Instant.zero
    private var pressed = false
    private var pressedAt = Instant.zero
    private var longPressDone = false
    private var nextRepeat: Instant?
    /// A short press waiting to see whether a second one follows.
    private var pendingPressSince: Instant?

    public init(timing: Timing = Timing(), activeHigh: Bool, detectsDoublePress: Bool, repeatsWhileHeld: Bool) {
        self.timing = timing
        self.activeHigh = activeHigh
        self.detectsDoublePress = detectsDoublePress
        self.repeatsWhileHeld = repeatsWhileHeld
    }

    /// An edge on the button's line; returns the gestures completed up to its time.
    public mutating func edge(high: Bool, at time: Instant) -> [(Gesture, Instant)] {
        var gestures = advance(to: time)
        let isPressed = high == activeHigh
        if isPressed != rawPressed {
            rawPressed = isPressed
            rawSince = time
        }
        gestures += advance(to: time)
        return gestures
    }

    /// Lets time pass to `now`: debounce settles, timers fire. Returns gestures with the
    /// time each happened.
    public mutating func advance(to now: Instant) -> [(Gesture, Instant)] {
        var gestures: [(Gesture, Instant)] = []
        // Timers that fall before a settling level change happen first.
        let settle: Instant? = rawPressed != pressed ? rawSince + timing.debounce : nil
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
    public var nextDeadline: Instant? {
        var deadlines: [Instant] = []
        if rawPressed != pressed { deadlines.append(rawSince + timing.debounce) }
        if pressed && !longPressDone && nextRepeat == nil { deadlines.append(pressedAt + timing.longPress) }
        if pressed, let nextRepeat { deadlines.append(nextRepeat) }
        if let pending = pendingPressSince { deadlines.append(pending + timing.doublePress) }
        return deadlines.min()
    }

    private mutating func didPress(at time: Instant, into gestures: inout [(Gesture, Instant)]) {
        pressedAt = time
        longPressDone = false
        nextRepeat = nil
        if let pending = pendingPressSince, time - pending <= timing.doublePress {
            pendingPressSince = nil
            gestures.append((.doublePress, time))
            longPressDone = true  // this press is spent
        }
    }

    private mutating func didRelease(at time: Instant, into gestures: inout [(Gesture, Instant)]) {
        defer { nextRepeat = nil }
        guard !longPressDone, nextRepeat == nil else { return }
        if detectsDoublePress {
            pendingPressSince = pressedAt
        } else {
            gestures.append((.press, time))
        }
    }

    private mutating func fireTimers(until now: Instant, into gestures: inout [(Gesture, Instant)]) {
        if let pending = pendingPressSince, pending + timing.doublePress <= now,
            !pressed || pressedAt > pending + timing.doublePress
        {
            pendingPressSince = nil
            gestures.append((.press, pending + timing.doublePress))
        }
        guard pressed, !longPressDone || nextRepeat != nil else { return }
        let threshold = pressedAt + timing.longPress
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
            nextRepeat = tick + timing.repeatInterval
        }
    }
}
