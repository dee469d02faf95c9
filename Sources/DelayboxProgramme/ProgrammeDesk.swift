import DelayboxAnswers
import DelayboxClips
import DelayboxCommands
import DelayboxEngine
import DelayboxMixer
import DelayboxPlatform
import DelayboxUnits
import FoundationEssentials

/// The appliance's side of the programme mix, on the playout thread: it asks the clip
/// loader for the channel's mute music and, as soon as an ad break is recorded (a whole
/// delay before it plays), for its ad; hands the clips to the mix; mixes each render; and
/// answers the controls with feedback sounds (played by the audio thread, `FeedbackCues`)
/// and, once the knob rests, the delay read out (in the mix, as programme).
public final class ProgrammeDesk {
    public let mix = ProgrammeMix()
    private let loader: ClipLoader
    private let speech = SpeechReadout()
    /// The controls' sounds; nil when the board turned them off.
    private let cues: FeedbackCues?
    /// The mute music wanted now (the channel's).
    private var musicURL: String?
    private var lastEventScan = Instant.zero
    /// When the delay is read out: the knob rested this long after its last turn.
    private var readoutDue: Instant?
    public static let readoutAfterRest = TimeAmount.milliseconds(1_200)
    /// Longest mute music kept (loops after): 34 MB as 16-bit stereo.
    public static let musicMaxSeconds = 180
    /// Longest ad audio kept (a break longer than its ad is silence after it): a spot is
    /// 15 to 60 s, and the mix holds up to `ProgrammeMix.maxAdClips` of them, 23 MB each
    /// at most as 16-bit stereo — a stream that names many long ads cannot fill a board.
    public static let adMaxSeconds = 120

    public init(cache: ClipCache, cues: FeedbackCues?) {
        loader = ClipLoader(cache: cache)
        self.cues = cues
    }

    public func start() { loader.start() }
    public func stop() { loader.stop() }

    /// A channel starts playing (at start or after a switch).
    public func channelStarted(_ channel: Channel, adsEnabled: Bool, switched: Bool) {
        if switched { mix.channelChanged() }
        musicURL = channel.muteMusicURL
        mix.setMuteMusic(nil, url: musicURL)
        mix.adsEnabled = channel.adsEnabled && adsEnabled
        if let url = musicURL { loader.want(url, maxSeconds: Self.musicMaxSeconds) }
    }

    /// Mixes what `engine` rendered into `buffer` (frame `firstFrame` on).
    public func render(_ buffer: UnsafeMutableBufferPointer<Float>, engine: PlaybackEngine, firstFrame: Int64) {
        mix.mix(buffer, renderedBy: engine, firstFrame: firstFrame)
    }

    /// Once per playout wake-up: takes loaded clips, asks for the ads of newly recorded
    /// breaks (once a second), plays a due read-out. Returns lines for the log.
    public func poll(engine: PlaybackEngine, now: Instant) -> [String] {
        var lines = mix.drainLog()
        for result in loader.drain() {
            switch result {
            case .loaded(let url, let clip):
                if url == musicURL { mix.setMuteMusic(clip, url: url) } else { mix.provideAd(clip, url: url) }
                lines.append("clip ready: \(url) (\(String(printf: "%.1f", Double(clip.frames) / 48_000)) s)")
            case .failed(_, let reason, let retry):
                lines.append("\(reason); silence in its place, trying again in \(retry) s")
            }
        }
        if now - lastEventScan >= .seconds(1) {
            lastEventScan = now
            for case .adBreak(let ad) in engine.heldEvents.map(\.event) where !mix.hasAd(url: ad.audioURL) {
                loader.want(ad.audioURL, maxSeconds: min(Int(ad.durationMs / 1_000) + 1, Self.adMaxSeconds))
            }
        }
        for clip in speech.take() { mix.play(clip) }
        if let due = readoutDue, now >= due {
            readoutDue = nil
            let delay = TimeAmount.wholeMilliseconds(frames: engine.delayInFrames)
            if !speech.say(delay: delay) { mix.play(FeedbackSound.delayInTones(milliseconds: delay.milliseconds).clip) }
        }
        return lines
    }

    /// Says `text` over the programme; false when the board has no synthesiser.
    public func say(_ text: String) -> Bool { speech.say(text) }

    /// The sound a control's command answers with.
    /// - Parameter touchedAt: when the control was touched (ns on the playout's clock).
    public func feedback(for command: Command, outcome: CommandExecutor.Outcome, touchedAt: Int64, now: Instant) {
        guard let cues else { return }
        switch outcome {
        case .refused: cues.play(.error, touchedAt: touchedAt)
        case .limitReached: cues.play(.limitReached, touchedAt: touchedAt)
        case .done, .reaching: cues.play(command == .toggleKnobMode ? .modeChange : .click, touchedAt: touchedAt)
        }
        switch command {
        case .adjustDelay, .setDelay, .syncDelay, .recallPreset, .jumpToLive:
            readoutDue = now + Self.readoutAfterRest
        default: break
        }
    }
}
