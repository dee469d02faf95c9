/// The two read heads playout renders from, and what passes between them: the crossfade of
/// a jump (landing in phase with the audio it leaves, `JumpAlignment`) and the drift
/// corrector's single-frame slips. The engine decides where playout should be and when to
/// jump or slip; this renders it. Preallocated: rendering does not allocate.
final class Playheads {
    /// The head that playout follows.
    private var primary: ReadHead
    /// The other head: fading out during a crossfade, idle otherwise.
    private var secondary: ReadHead
    private var crossfade: Crossfade
    /// Lines up a correcting jump with the audio it leaves.
    private let alignment: JumpAlignment
    /// Scratch for the outgoing head during a crossfade.
    private let outgoingBuffer: UnsafeMutableBufferPointer<Float>
    /// Holds a chunk plus one frame while a drift correction stretches it.
    private let slipBuffer: UnsafeMutableBufferPointer<Float>
    private var drift = DriftCorrector()
    /// The slip steering decided for the chunk being rendered (-1, 0, +1 frames).
    private var pendingSlip = 0

    /// - Parameters:
    ///   - chunkFrames: the most frames one `render` is asked for.
    ///   - fadeFrames: each head's fade at the edges of lost audio.
    ///   - crossfadeFrames: a jump's crossfade; `settleFrames` the most an aligned jump
    ///     lands off its target.
    init(
        decoderFactory: PacketDecoderFactory, chunkFrames: Int, fadeFrames: Int64, crossfadeFrames: Int,
        settleFrames: Int
    ) {
        primary = ReadHead(decoder: decoderFactory(), fadeFrames: fadeFrames)
        secondary = ReadHead(decoder: decoderFactory(), fadeFrames: fadeFrames)
        crossfade = Crossfade(lengthFrames: crossfadeFrames)
        alignment = JumpAlignment(maximumLagFrames: settleFrames, crossfadeFrames: crossfade.lengthFrames)
        outgoingBuffer = .allocate(capacity: chunkFrames * AudioFormat.channelCount)
        outgoingBuffer.initialize(repeating: 0)
        slipBuffer = .allocate(capacity: (chunkFrames + 1) * AudioFormat.channelCount)
        slipBuffer.initialize(repeating: 0)
    }

    deinit {
        outgoingBuffer.deallocate()
        slipBuffer.deallocate()
    }

    /// The timeline position of playout's next frame.
    var position: Int64 { primary.position }
    /// Whether a jump's crossfade is under way.
    var isCrossfading: Bool { !crossfade.isFinished }
    /// The DAC's error the slips have followed (ppm).
    var driftPpm: Double { drift.driftPpm }

    /// Playout continues from `position`, without a crossfade (a start, a resume).
    func seek(to position: Int64) { primary.seek(to: position) }

    /// Heads at or after `start` move by `delta` frames, delivering the same audio.
    func shift(from start: Int64, by delta: Int64) {
        for head in [primary, secondary] where head.position >= start { head.shift(by: delta) }
    }

    /// Playout is `error` frames off where it should be (positive: ahead): the next chunk of
    /// `frames` slips a frame if the corrector says so.
    func steer(error: Int64, frames: Int) { pendingSlip = drift.slip(forError: error, frames: frames) }

    /// Crossfades from the current head to a head at `position`; an `aligned` jump lands
    /// up to the settle error away, in phase with the audio it leaves, and the drift
    /// corrector takes that lag from there. Returns where it landed.
    func jump(to position: Int64, aligned: Bool, line: DelayLine) -> Int64 {
        swap(&primary, &secondary)
        let landing = position + (aligned ? alignedLag(leaving: secondary, for: position, line: line) : 0)
        drift.restart(error: landing - position)
        primary.seek(to: landing)
        crossfade.restart()
        return landing
    }

    /// What one `render` delivered.
    struct Rendered {
        var silentFrames = 0
        var decodeErrors = 0
        /// A drift correction's frame was slipped in this chunk.
        var slipped = false
    }

    /// Renders `frames` frames of playout into `out` (the crossfade's outgoing head mixed
    /// in while one runs; zeros where a head starved); `advanceBeyondData`: heads go on
    /// past the newest audio (nothing more will come).
    func render(into out: UnsafeMutablePointer<Float>, frames: Int, line: DelayLine, advanceBeyondData advance: Bool)
        -> Rendered
    {
        let channels = AudioFormat.channelCount
        // A drift correction reads a frame more or fewer and stretches it to the chunk,
        // only where that much audio is there and no crossfade is running.
        let slip =
            crossfade.isFinished && frames > 1 && line.endPosition - primary.position > Int64(frames + 1)
            ? pendingSlip : 0
        pendingSlip = 0
        var outcome = primary.render(
            into: slip == 0 ? out : slipBuffer.baseAddress!, frames: frames + slip, line: line,
            advanceBeyondData: advance)
        var rendered = Rendered()
        if slip != 0 {
            if outcome.frames == frames + slip {
                FrameSlip.stretch(slipBuffer.baseAddress!, frames: frames + slip, into: out, frames: frames)
                outcome.frames = frames
                rendered.slipped = true
            } else {
                outcome.frames = min(outcome.frames, frames)
                out.update(from: slipBuffer.baseAddress!, count: outcome.frames * channels)
            }
        }
        if outcome.frames < frames {
            (out + outcome.frames * channels).update(repeating: 0, count: (frames - outcome.frames) * channels)
        }
        rendered.silentFrames = outcome.silentFrames
        rendered.decodeErrors = outcome.decodeErrors
        if !crossfade.isFinished {
            let count = min(frames, crossfade.lengthFrames - crossfade.progress)
            let outgoing = outgoingBuffer.baseAddress!
            let written = secondary.render(into: outgoing, frames: count, line: line, advanceBeyondData: advance)
                .frames
            if written < count {
                (outgoing + written * channels).update(repeating: 0, count: (count - written) * channels)
            }
            crossfade.mix(incoming: out, outgoing: outgoing, frames: count)
        }
        return rendered
    }

    /// The lag from `target` at which the incoming head continues `outgoing` in phase; 0
    /// where either side lacks audio for the whole window. The outgoing head is read ahead
    /// and put back where it was (its next render decodes that audio again).
    private func alignedLag(leaving outgoing: ReadHead, for target: Int64, line: DelayLine) -> Int64 {
        let resume = outgoing.position
        let heard = outgoing.render(
            into: alignment.outgoing.baseAddress!, frames: alignment.windowFrames, line: line, advanceBeyondData: false)
        outgoing.seek(to: resume)
        guard heard.frames == alignment.windowFrames, heard.silentFrames == 0 else { return 0 }
        let lag = Int64(alignment.maximumLagFrames)
        primary.seek(to: target - lag)
        let coming = primary.render(
            into: alignment.incoming.baseAddress!, frames: alignment.incomingFrames, line: line,
            advanceBeyondData: false)
        guard coming.frames == alignment.incomingFrames, coming.silentFrames == 0 else { return 0 }
        return Int64(alignment.bestLag())
    }
}
