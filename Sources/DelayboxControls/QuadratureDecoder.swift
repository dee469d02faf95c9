/// A rotary encoder's two lines to detents.
///
/// The lines' levels walk the Gray cycle 00 → 01 → 11 → 10 one step at a time; a
/// position counter follows in quarter steps (+1 one way, −1 the other). Contact bounce on
/// one line only steps back and forth between neighbours, so it cancels out and can never
/// make a detent, let alone a backwards one. A detent is counted when the lines rest in a
/// detent state with the counter a whole detent from the last one; turning back before
/// the detent cancels the half-turned step. A missed transition (both lines changed
/// between two reads) is taken as two steps in the direction of travel.
public struct QuadratureDecoder: Sendable {
    /// Quarter steps per mechanical detent: 4 (full cycle), 2 or 1.
    public let stepsPerDetent: Int
    private var phase: Int
    private var position = 0
    private var lastDirection = 1
    private let restPhase: Int

    /// - Parameters:
    ///   - a, b: the lines' levels at start (the knob rests in a detent).
    public init(stepsPerDetent: Int, a: Bool, b: Bool) {
        precondition([1, 2, 4].contains(stepsPerDetent))
        self.stepsPerDetent = stepsPerDetent
        phase = Self.phase(a: a, b: b)
        restPhase = phase
    }

    /// Position in the Gray cycle: 00 → 0, 01 → 1, 11 → 2, 10 → 3.
    static func phase(a: Bool, b: Bool) -> Int {
        switch (a, b) {
        case (false, false): 0
        case (false, true): 1
        case (true, true): 2
        case (true, false): 3
        }
    }

    /// The lines now read `a`, `b`; returns the detents completed: positive one way,
    /// negative the other.
    public mutating func update(a: Bool, b: Bool) -> Int {
        let next = Self.phase(a: a, b: b)
        switch (next - phase + 4) % 4 {
        case 0: return 0
        case 1: position += 1; lastDirection = 1
        case 3: position -= 1; lastDirection = -1
        default: position += 2 * lastDirection  // a missed transition
        }
        phase = next
        guard isDetentPhase(next) else { return 0 }
        let detents = position / stepsPerDetent
        position -= detents * stepsPerDetent
        return detents
    }

    /// Where a detent rests: the start phase for full-cycle encoders, it and its opposite
    /// for half-cycle ones, every phase for quarter-cycle ones.
    private func isDetentPhase(_ phase: Int) -> Bool {
        switch stepsPerDetent {
        case 4: phase == restPhase
        case 2: phase % 2 == restPhase % 2
        default: true
        }
    }
}
