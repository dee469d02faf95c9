import DelayboxEngine

/// Several sources mixed on one timeline of output frames, like a multi-stream buffer:
/// each source's audio is enqueued with the timeline frame it is to be heard at (in its
/// own format: converted on the way in); `mix` dequeues the next frames of all of them,
/// summed with each source's ramped level and pan and limited; `mix(only:)` dequeues one
/// alone; `buffered` peeks what a source holds.
///
/// A source that has nothing at the frames being mixed plays silence there — it never
/// holds the mix back — and once it has had nothing for its idle threshold (or is marked
/// idle) it is skipped until audio is enqueued again. Levels keep ramping whether or not a
/// source has audio, so a fade scheduled on the timeline ends where it was meant to.
///
/// Everything is allocated at init: enqueueing and mixing never allocate.
public final class Mixer {
    /// The next timeline frame `mix` produces.
    public private(set) var position: Int64
    private var sources: [MixerSource]
    private var limiter = SoftLimiter()

    /// - Parameters:
    ///   - sources: how many inputs (addressed 0..<sources).
    ///   - capacityFrames: audio each source can hold ahead of the mix position.
    ///   - idleAfter: silence after which a source counts as idle.
    ///   - position: the timeline frame to start mixing at.
    public init(
        sources count: Int, capacityFrames: Int = 48_000, idleAfter: TimeAmount = .milliseconds(200),
        position: Int64 = 0
    ) {
        self.position = position
        sources = (0..<count).map { _ in
            MixerSource(
                capacityFrames: capacityFrames, level: 1, idleAfterFrames: idleAfter.audioFrames
            )
        }
    }

    // MARK: Feeding

    /// Enqueues `frames` frames of `format` read through `sample(frame, channel)`, to be
    /// heard from timeline frame `at`. Returns how many input frames were taken: fewer
    /// when the source's queue is full (enqueue the rest later at `fedUntil(source)`).
    /// Frames that would be heard before `position` are too late and are dropped.
    @discardableResult
    public func enqueue(
        _ source: Int, frames: Int, format: SourceFormat = .native, at frame: Int64,
        sample: (Int, Int) -> Float
    ) -> Int {
        sources[source].enqueue(frames: frames, format: format, at: frame, readPosition: position, sample: sample)
    }

    /// Enqueues interleaved Float samples of `format` from timeline frame `at`; the
    /// internal format is copied in straight runs.
    @discardableResult
    public func enqueue(
        _ source: Int, samples: UnsafeBufferPointer<Float>, format: SourceFormat = .native, at frame: Int64
    ) -> Int {
        if format == .native, let base = samples.baseAddress {
            return sources[source].enqueue(
                native: base, frames: samples.count / AudioFormat.channelCount, at: frame, readPosition: position)
        }
        return enqueue(source, frames: samples.count / format.channels, format: format, at: frame) {
            samples[$0 * format.channels + $1]
        }
    }

    /// The timeline frame after the newest audio enqueued for a source (nil: never fed).
    public func fedUntil(_ source: Int) -> Int64? { sources[source].fedUntil }

    /// Frames a source holds that are still to be mixed, as a timeline range (empty: none).
    public func buffered(_ source: Int) -> Range<Int64> {
        let queue = sources[source].queue
        let from = max(queue.start, position)
        return from < queue.end ? from..<queue.end : position..<position
    }

    // MARK: Settings

    /// Ramps a source's level (linear amplitude 0...1) to `level` over `ramp`.
    public func setLevel(_ source: Int, _ level: Float, over ramp: TimeAmount) {
        sources[source].level.ramp(to: level, lengthFrames: Int(ramp.audioFrames))
    }

    /// A source's level now, and where it is heading.
    public func level(_ source: Int) -> (now: Float, target: Float) {
        (sources[source].level.level, sources[source].level.target)
    }

    /// −1 (left) … +1 (right).
    public func setPan(_ source: Int, _ pan: Float) { sources[source].pan = min(1, max(-1, pan)) }

    /// Drops what the source holds and skips it until audio is enqueued again.
    public func markIdle(_ source: Int) {
        sources[source].queue.clear()
        sources[source].isIdle = true
    }

    public func isIdle(_ source: Int) -> Bool { sources[source].isIdle }

    /// Frames the limiter has reduced so far.
    public var limitedFrames: Int64 { limiter.limitedFrames }

    // MARK: Mixing

    /// Mixes the next `frames` frames of every source that is not idle into `out`
    /// (interleaved stereo) and limits the sum. With `inPlace`, `out` already holds that
    /// source's frames (the programme, rendered there): they get its level and pan where
    /// they are — no queue, no copy — and the others are added.
    public func mix(into out: UnsafeMutablePointer<Float>, frames: Int, inPlace: Int? = nil) {
        if let inPlace {
            sources[inPlace].scale(inPlace: out, frames: frames, position: position)
        } else {
            out.update(repeating: 0, count: frames * AudioFormat.channelCount)
        }
        for index in sources.indices where index != inPlace {
            sources[index].add(into: out, frames: frames, position: position)
        }
        limiter.apply(to: out, frames: frames)
        position += Int64(frames)
    }

    /// Dequeues the next `frames` frames of one source alone (with its level and pan, not
    /// limited); the others' audio for those frames is discarded, their levels move on.
    public func mix(only source: Int, into out: UnsafeMutablePointer<Float>, frames: Int) {
        out.update(repeating: 0, count: frames * AudioFormat.channelCount)
        for index in sources.indices {
            if index == source {
                sources[index].add(into: out, frames: frames, position: position)
            } else {
                sources[index].skip(frames: frames, position: position)
            }
        }
        position += Int64(frames)
    }
}
