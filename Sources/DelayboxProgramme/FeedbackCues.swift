import DelayboxAudio
import DelayboxMixer

/// The controls' feedback sounds, played by the audio thread over whatever the ring
/// already holds (`CuePlayer`): a detent's click is heard within the device's buffer,
/// not after the programme the playout has rendered ahead.
public struct FeedbackCues: Sendable {
    /// The sounds a control answers with; the delay's read-out is programme (`ProgrammeMix`).
    public static let sounds: [FeedbackSound] = [.click, .modeChange, .limitReached, .error]
    public let player = CuePlayer(sounds: Self.sounds.map(\.clip.floatSamples))

    public init() {}

    /// - Parameter touchedAt: when the control was touched (ns on the output's clock).
    public func play(_ sound: FeedbackSound, touchedAt: Int64) {
        guard let index = Self.sounds.firstIndex(of: sound) else {
            preconditionFailure("\(sound) is not a control's sound")
        }
        player.play(index, touchedAt: touchedAt)
    }
}
