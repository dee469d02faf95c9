/// A source's level: linear amplitude that moves in a straight line to a target over a
/// length chosen per change (an 800 ms mute fade, a 300 ms duck, a 10 ms ad start), so a
/// level change never steps: the largest sample-to-sample change it adds is
/// `|target - start| / lengthFrames` of full scale. The level at each frame is computed
/// from the frame count, not accumulated, so a ramp is exact to the frame however long.
public struct LevelRamp: Sendable, Equatable {
    /// Linear amplitude now, 0...1.
    public private(set) var level: Float
    /// Where the ramp is heading.
    public private(set) var target: Float
    private var start: Float
    /// Change per frame.
    private var step: Float = 0
    private var elapsed = 0
    private var length = 0

    public init(_ level: Float) {
        self.level = level
        target = level
        start = level
    }

    /// Whether the level has reached its target.
    public var isSettled: Bool { level == target }

    /// Heads for `target` from the level now, arriving `lengthFrames` frames from now
    /// (0: at once).
    public mutating func ramp(to target: Float, lengthFrames: Int) {
        self.target = min(1, max(0, target))
        start = level
        elapsed = 0
        length = max(0, lengthFrames)
        step = length == 0 ? 0 : (self.target - start) / Float(length)
        if length == 0 { level = self.target }
    }

    /// The gains of the next `frames` frames without advancing: frame `i < ramping` has
    /// `base + step · i`, the rest have `target` — so a loop over them has no branch.
    @inline(__always)
    public func plan(frames: Int) -> (base: Float, step: Float, ramping: Int) {
        guard level != target else { return (level, 0, 0) }
        let ramping = min(frames, max(0, length - elapsed - 1))
        return (start + step * Float(elapsed + 1), step, ramping)
    }

    /// Advances the ramp by `frames` frames (a source with nothing to play still moves
    /// along the timeline).
    @inline(__always)
    public mutating func advance(frames: Int) {
        guard level != target else { return }
        elapsed += frames
        level = elapsed >= length ? target : start + step * Float(elapsed)
    }
}
