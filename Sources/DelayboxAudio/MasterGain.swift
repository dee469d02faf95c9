import Synchronization

/// The software gain the audio thread applies, set from the playout thread: volume on a
/// board without a mixer control, mute, and the fade at shutdown. One atomic word (the
/// Float's bits), so setting it never blocks the audio thread.
public final class MasterGain: Sendable {
    private let bits: Atomic<UInt32>

    /// - Parameter gain: linear amplitude, 0...1.
    public init(_ gain: Float = 1) { bits = Atomic(gain.bitPattern) }

    /// Linear amplitude, 0...1; the audio thread ramps towards it.
    public var gain: Float {
        get { Float(bitPattern: bits.load(ordering: .relaxed)) }
        set { bits.store(min(1, max(0, newValue)).bitPattern, ordering: .relaxed) }
    }
}
