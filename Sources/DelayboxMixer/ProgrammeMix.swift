import DelayboxEngine

/// What the listener hears: the delayed stream, mute music while the streamer is muted,
/// ads in their breaks, and sounds over everything (the delay read out), mixed on one timeline
/// (docs/stream-events.md has the rules). Events act at their exact frame in delayed
/// time — the frame the engine reports them at — and every change of level is a ramp:
///
/// - muted: the stream fades out and the mute music fades in (800 ms), looping until
///   unmuted; unmuted: the reverse;
/// - an ad break with ads on: stream and music duck to zero (300 ms), the ad starts
///   (10 ms fade-in) and plays for the break's length (longer ads fade out at its end,
///   shorter ones leave silence), then the levels come back; with ads off it is ignored
///   and logged; an ad whose audio is not there plays as silence for the break, logged;
/// - a jump towards live into a break plays the rest of it — the ad from as far in as
///   the break is at the new place, to the break's end, where the stream comes back on
///   time; a jump back before it stops the ad and restores the levels;
/// - paused: music and ad fade out and hold their place (the engine silences the
///   stream); sounds over everything are always heard. (The controls' own clicks and
///   beeps are not the mix's: the audio thread plays them, so that they are not heard
///   behind what the playout has rendered ahead.)
///
/// Runs on the playout thread, after the engine's render, with the frames it rendered.
public final class ProgrammeMix {
    /// The mixer's inputs.
    public enum Input: Int, CaseIterable, Sendable {
        case stream, muteMusic, ad, feedback
    }

    /// Level changes, in ms.
    public enum Ramp {
        public static let mute = TimeAmount.milliseconds(800)
        public static let duck = TimeAmount.milliseconds(300)
        public static let adIn = TimeAmount.milliseconds(10)
        public static let adOut = TimeAmount.milliseconds(50)
        public static let pause = TimeAmount.milliseconds(20)
    }

    /// Whether ad breaks play their ads (the channel's and the listener's setting).
    public var adsEnabled = true
    /// Whether the streamer is muted at the playout position.
    public private(set) var isMuted = false
    /// The ad break playing, if any.
    public private(set) var playingAd: AdBreak?

    private let mixer: Mixer
    private var muteMusic: AudioClip?
    private var muteMusicURL: String?
    private var adClips: [String: AudioClip] = [:]
    private var musicPlayer: ClipPlayer?
    private var adPlayer: ClipPlayer?
    /// Frames of the playing break still to come.
    private var adRemaining: Int64 = 0
    private var playing = false
    private var voices: [(clip: AudioClip, cursor: Int)] = []
    private var scratch: [Float] = []
    private var log: [String] = []

    /// Frames each source's queue holds: a mix segment's worth with room to spare (a
    /// render is split into segments of at most half of it). Small, so the queues stay in
    /// the cache (a quarter less mixing time than with 1 s queues).
    public static let queueFrames = Int(AudioFormat.frames(milliseconds: 250))

    public init() {
        mixer = Mixer(sources: Input.allCases.count, capacityFrames: Self.queueFrames)
        mixer.setLevel(Input.muteMusic.rawValue, 0, over: .zero)
        mixer.setLevel(Input.ad.rawValue, 0, over: .zero)
    }

    // MARK: Clips

    /// The mute music for the channel now playing (nil while not (yet) available: muted
    /// periods are silent until it is).
    public func setMuteMusic(_ clip: AudioClip?, url: String?) {
        muteMusic = clip?.fadedAtBothEnds(milliseconds: 5)
        muteMusicURL = url
        // Muted and playing silence for want of the music: the music starts now (its own
        // 5 ms fade-in: no click).
        if musicPlayer != nil, musicPlayer?.clip == nil, let music = muteMusic {
            musicPlayer = ClipPlayer(clip: music, loops: true, lengthFrames: nil)
        }
    }

    /// An ad's audio, fetched ahead of its break — or during it, when the break began
    /// before the box knew of it (a box that joined mid-break): the ad then comes in
    /// where the break is, for the rest of it.
    public func provideAd(_ clip: AudioClip, url: String) {
        let faded = clip.fadedAtBothEnds(milliseconds: 5)
        adClips[url] = faded
        if adClips.count > Self.maxAdClips, let oldest = adClips.keys.first(where: { $0 != url }) {
            adClips[oldest] = nil
        }
        if let ad = playingAd, ad.audioURL == url, adPlayer?.clip == nil {
            let elapsed = playAdFromWhereTheBreakIs(faded)
            log.append(
                "ad audio ready \(AudioFormat.milliseconds(frames: elapsed)) ms into its break: it plays from there")
        }
    }

    /// Ads held at once: a stream that names many cannot fill the board's memory.
    public static let maxAdClips = 4

    public func hasAd(url: String) -> Bool { adClips[url] != nil }

    /// A sound (the delay read out), heard from the next frame mixed, over everything else.
    public func play(_ sound: AudioClip) {
        voices.append((sound, 0))
        if voices.count > 8 { voices.removeFirst() }
    }

    /// A new channel: its programme state starts fresh (an ad in progress fades out).
    public func channelChanged() {
        isMuted = false
        if playingAd != nil { stopAd() }
        retarget(stream: Ramp.mute, music: Ramp.mute, ad: Ramp.adOut)
    }

    /// What happened worth a log line since the last call.
    public func drainLog() -> [String] {
        defer { log.removeAll() }
        return log
    }

    // MARK: Rendering

    /// Mixes `frames` frames into `out`: `programme` is what the engine rendered for them,
    /// `effects` the events that took effect in them, `playing` whether the engine is
    /// playing (not paused or waiting) for them.
    public func render(
        into out: UnsafeMutablePointer<Float>, frames: Int, programme: UnsafePointer<Float>,
        effects: [EventEffect], playing: Bool
    ) {
        // The programme stays where the engine rendered it and is mixed in place.
        if UnsafePointer(out) != programme { out.update(from: programme, count: frames * AudioFormat.channelCount) }
        if playing != self.playing {
            self.playing = playing
            retarget(stream: Ramp.pause, music: Ramp.pause, ad: Ramp.pause)
        }
        var done = 0
        var next = 0
        while done < frames {
            var boundary = min(frames, done + Self.queueFrames / 2)
            if next < effects.count { boundary = min(boundary, max(done, effects[next].offset)) }
            if playingAd != nil, playing { boundary = min(boundary, done + Int(adRemaining)) }
            if boundary > done {
                segment(into: out + done * AudioFormat.channelCount, frames: boundary - done)
                done = boundary
            }
            if playingAd != nil, adRemaining == 0 { endAd() }
            while next < effects.count, effects[next].offset <= done {
                apply(effects[next])
                next += 1
            }
        }
        while next < effects.count {
            apply(effects[next])
            next += 1
        }
    }

    /// Mixes in place what `engine` just rendered into `buffer`, starting at engine
    /// frame `firstFrame` (its `renderedFrames` before the render), with the events that
    /// took effect in it.
    public func mix(_ buffer: UnsafeMutableBufferPointer<Float>, renderedBy engine: PlaybackEngine, firstFrame: Int64) {
        let frames = buffer.count / AudioFormat.channelCount
        let effects = EventEffect.collect(from: engine.pendingNotifications, firstFrame: firstFrame, frames: frames)
        // In place: the engine's frames are the stream source's. A break's ad runs on
        // through a reconnect, as the timeline does: its end is a place in the stream.
        render(
            into: buffer.baseAddress!, frames: frames, programme: buffer.baseAddress!, effects: effects,
            playing: engine.isPlayingOut)
    }

    private func segment(into out: UnsafeMutablePointer<Float>, frames: Int) {
        if playing {
            musicPlayer?.play(frames: frames, into: mixer, source: Input.muteMusic.rawValue)
            adPlayer?.play(frames: frames, into: mixer, source: Input.ad.rawValue)
            if playingAd != nil { adRemaining -= Int64(frames) }
        }
        playFeedback(frames: frames)
        mixer.mix(into: out, frames: frames, inPlace: Input.stream.rawValue)
        // A player no longer wanted stops once faded out (its source turns idle); a paused
        // one keeps its place.
        if !isMuted, mixer.level(Input.muteMusic.rawValue) == (0, 0) { musicPlayer = nil }
        if playingAd == nil, mixer.level(Input.ad.rawValue) == (0, 0) { adPlayer = nil }
    }

    private func playFeedback(frames: Int) {
        guard !voices.isEmpty else { return }
        if scratch.count < frames * AudioFormat.channelCount {
            scratch = [Float](repeating: 0, count: frames * AudioFormat.channelCount)
        }
        scratch.withUnsafeMutableBufferPointer { buffer in
            buffer.update(repeating: 0)
            for index in voices.indices {
                let (clip, cursor) = voices[index]
                let count = min(frames, clip.frames - cursor)
                for frame in 0..<count {
                    buffer[2 * frame] += clip.sample(cursor + frame, 0)
                    buffer[2 * frame + 1] += clip.sample(cursor + frame, 1)
                }
                voices[index].cursor += count
            }
            mixer.enqueue(Input.feedback.rawValue, frames: frames, at: mixer.position) { buffer[2 * $0 + $1] }
        }
        voices.removeAll { $0.cursor >= $0.clip.frames }
    }

    // MARK: Programme state

    private func apply(_ effect: EventEffect) {
        let undone = effect.transition == .undoneByJump
        switch effect.event {
        case .streamerMuted: setMuted(!undone)
        case .streamerUnmuted: setMuted(undone)
        case .title: break
        case .adBreak(let ad) where effect.transition == .movedByJump:
            move(ad, to: effect.elapsedFrames)
        case .adBreak(let ad):
            if undone {
                if playingAd == ad {
                    stopAd()
                    log.append("ad stopped: a jump back before its break")
                }
            } else if !adsEnabled {
                log.append("ad break ignored (ads off): \(ad.durationMs) ms, \(ad.audioURL)")
            } else {
                startAd(ad, elapsedFrames: effect.elapsedFrames)
            }
        }
    }

    /// A jump moved playout `elapsedFrames` into `ad`'s break (its length or more: past
    /// its end): the break ends where the programme has it — the ad playing goes on to that
    /// end, one not playing (a jump back into a break heard) plays from that frame, and past
    /// the end it is over.
    private func move(_ ad: AdBreak, to elapsedFrames: Int64) {
        let length = AudioFormat.frames(milliseconds: ad.durationMs)
        if elapsedFrames >= length {
            guard playingAd == ad else { return }
            endAd()
            log.append("ad ended: a jump past its break's end")
            return
        }
        // The ad playing goes on as it was (a seek in it would be heard: a step, for a
        // delay step of 100 ms or a resync of 50) and ends where the break now ends.
        if playingAd == ad {
            adRemaining = length - elapsedFrames
            return
        }
        guard adsEnabled else { return }
        startAd(ad, elapsedFrames: elapsedFrames)
    }

    private func setMuted(_ muted: Bool) {
        guard muted != isMuted else { return }
        isMuted = muted
        if muted {
            if musicPlayer == nil { musicPlayer = ClipPlayer(clip: muteMusic, loops: true, lengthFrames: nil) }
            if muteMusic == nil {
                log.append(
                    "streamer muted; no mute music \(muteMusicURL.map { "(\($0) not available yet)" } ?? "configured"): silence"
                )
            }
        }
        retarget(stream: Ramp.mute, music: Ramp.mute, ad: Ramp.adOut)
    }

    /// Starts `ad`'s break `elapsedFrames` into it: the ad from that frame, for the rest
    /// of the break.
    private func startAd(_ ad: AdBreak, elapsedFrames: Int64) {
        let clip = adClips[ad.audioURL]
        let length = AudioFormat.frames(milliseconds: ad.durationMs)
        guard elapsedFrames < length else { return }
        playingAd = ad
        adRemaining = length - elapsedFrames
        playAdFromWhereTheBreakIs(clip)
        if clip == nil { log.append("ad audio not available (\(ad.audioURL)): \(ad.durationMs) ms of silence") }
        if elapsedFrames > 0 {
            log.append("ad plays from \(AudioFormat.milliseconds(frames: elapsedFrames)) ms in, to its break's end")
        }
    }

    /// Plays `clip` (nil: silence) for the break in progress from as far into it as the
    /// break is, to its end; it comes in on the ad's own short ramp (mid-clip: no step)
    /// while the rest ducks. Returns how far in that is (frames).
    @discardableResult
    private func playAdFromWhereTheBreakIs(_ clip: AudioClip?) -> Int64 {
        let elapsed = AudioFormat.frames(milliseconds: playingAd?.durationMs ?? 0) - adRemaining
        adPlayer = ClipPlayer(
            clip: clip, loops: false, lengthFrames: adRemaining + Ramp.adOut.audioFrames,
            startFrame: Int(elapsed))
        mixer.setLevel(Input.ad.rawValue, 0, over: .zero)
        retarget(stream: Ramp.duck, music: Ramp.duck, ad: Ramp.adIn)
        return elapsed
    }

    private func endAd() {
        playingAd = nil
        retarget(stream: Ramp.duck, music: Ramp.duck, ad: Ramp.adOut)
    }

    private func stopAd() {
        playingAd = nil
        adRemaining = 0
        retarget(stream: Ramp.duck, music: Ramp.duck, ad: Ramp.adOut)
    }

    /// Sets each source's level for the state, ramping over the given lengths; a level
    /// already heading there keeps its ramp.
    private func retarget(stream: TimeAmount, music: TimeAmount, ad adRamp: TimeAmount) {
        let ad = playingAd != nil
        set(.stream, isMuted || ad ? 0 : 1, stream)
        set(.muteMusic, isMuted && !ad && playing ? 1 : 0, music)
        set(.ad, ad && playing ? 1 : 0, adRamp)
    }

    private func set(_ input: Input, _ level: Float, _ ramp: TimeAmount) {
        guard mixer.level(input.rawValue).target != level else { return }
        mixer.setLevel(input.rawValue, level, over: ramp)
    }
}
