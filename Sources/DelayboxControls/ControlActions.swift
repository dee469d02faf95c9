import DelayboxCommands
import DelayboxConfig
import DelayboxUnits

/// What an action does when a control fires it — the same for a panel button, the knob's
/// push and a remote's key — with the state some actions keep: the knob's mode, and
/// tap-to-sync's first tap (shared with the other controls: `TapPairing`).
public struct ControlActions: Sendable {
    public enum KnobMode: Sendable, Equatable {
        case delay, volume
    }

    /// Delay change per press, or per slow detent (ms).
    public let delayStep: TimeAmount
    /// The most one detent or one repeat may change the delay, however fast.
    public static let largestDelayStep = TimeAmount.seconds(1)
    /// Volume change per press (steps of the 0-100 scale).
    public static let volumeStep = 2
    public private(set) var knobMode = KnobMode.delay
    private let taps: TapPairing

    public init(delayStep: TimeAmount, taps: TapPairing = TapPairing()) {
        self.delayStep = delayStep
        self.taps = taps
    }

    /// The command `binding` fires at `time` (nil: a tap that waits for its pair).
    public mutating func command(for binding: ControlBinding, at time: Instant) -> Command? {
        switch binding.action {
        case .delayUp: return .adjustDelay(milliseconds: delayStep.milliseconds)
        case .delayDown: return .adjustDelay(milliseconds: -delayStep.milliseconds)
        case .volumeUp: return .adjustVolume(steps: Self.volumeStep)
        case .volumeDown: return .adjustVolume(steps: -Self.volumeStep)
        case .modeToggle:
            knobMode = knobMode == .delay ? .volume : .delay
            return .toggleKnobMode
        case .playPause: return .playPause
        case .jumpToLive: return .jumpToLive
        case .mute: return .toggleMute
        case .presetRecall: return .recallPreset(binding.slot)
        case .presetSave: return .savePreset(binding.slot)
        case .nextChannel: return .nextChannel
        case .tapSync: return taps.tap(at: time).map { .syncDelay(milliseconds: $0) }
        case .tapHeard: return taps.heard(at: time).map { .syncDelay(milliseconds: $0) }
        case .tapSeen: return taps.seen(at: time).map { .syncDelay(milliseconds: $0) }
        case .sayAddress: return .sayAddress
        }
    }

    /// One step of the delay at `multiplier` times the base step (the knob spinning, a
    /// remote's key held): rounded to 10 ms, at most `largestDelayStep` (ms).
    public func delayStep(multiplier: Double) -> Int64 {
        min(
            Self.largestDelayStep.milliseconds, Int64((Double(delayStep.milliseconds) * multiplier / 10).rounded()) * 10
        )
    }
}
