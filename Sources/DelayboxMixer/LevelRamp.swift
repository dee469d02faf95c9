/// A source's level: linear amplitude that moves in a straight line to a target over a
/// length chosen per change (a 500 ms mute fade, a 200 ms duck, a 10 ms ad start), so a
/// level change never steps: the largest sample-to-sample change it adds is
/// `|target - level| / lengthFrames` of full scale.
public struct LevelRamp: Sendable, Equatable {
    /// Linear amplitude now, 0...1.
    public private(set) var level: Float
    /// Where the ramp is heading.
    public private(set) var target: Float
    private var step: Float = 0

    public init(_ level: Float) {
        self.level = level
        target = level
    }

    /// Whether the level has reached its target.
    public var isSettled: Bool { level == target }

    /// Heads for `target`, arriving `lengthFrames` frames from now (0: at once).
    public mutating func ramp(to target: Float, lengthFrames: Int) {
        self.target = min(1, max(0, target))
        if lengthFrames <= 0 {
            level = self.target
            step = 0
        } else {
            step = abs(self.target - level) / Float(lengthFrames)
        }
    }

    /// The level for the next frame (advances the ramp by one frame).
    @inline(__always)
    public mutating func next() -> Float {
        if level < target {
            level = min(target, level + step)
        } else if level > target {
            level = max(target, level - step)
        }
        return level
    }

    /// Advances the ramp by `frames` frames without producing audio (a source with
    /// nothing to play still moves along the timeline).
    public mutating func advance(frames: Int) {
        guard !isSettled else { return }
        let moved = step * Float(frames)
        level = level < target ? min(target, level + moved) : max(target, level - moved)
    }
}
