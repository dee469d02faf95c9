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
        if length == 0 { level = self.target }
    }

    /// The level for the next frame (advances the ramp by one frame).
    @inline(__always)
    public mutating func next() -> Float {
        if level != target { advance(frames: 1) }
        return level
    }

    /// Advances the ramp by `frames` frames (a source with nothing to play still moves
    /// along the timeline).
    public mutating func advance(frames: Int) {
        guard level != target else { return }
        elapsed += frames
        level = elapsed >= length ? target : start + (target - start) * Float(elapsed) / Float(length)
    }
}
