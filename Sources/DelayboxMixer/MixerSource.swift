import DelayboxEngine

/// One input of the mixer: its queue of timestamped audio, its level and pan, and whether
/// it is idle. The mixer changes sources in place (`sources[i].method()`), so the queue's
/// storage is never copied.
struct MixerSource {
    var queue: SourceQueue
    var converter = RateConverter()
    var level: LevelRamp
    /// −1 (left only) … 0 (centre, both at unity) … +1 (right only): a balance control,
    /// so a centred source plays exactly as it came.
    var pan: Float = 0
    /// Frames without audio after which the source counts as idle.
    var idleAfterFrames: Int64
    /// An idle source is skipped by the mix until audio is enqueued again.
    var isIdle = true
    /// Timeline frame after the newest audio enqueued (nil: never fed); audio enqueued
    /// exactly there continues the resampler's state.
    var fedUntil: Int64?

    init(capacityFrames: Int, level: Float, idleAfterFrames: Int64) {
        queue = SourceQueue(capacityFrames: capacityFrames)
        self.level = LevelRamp(level)
        self.idleAfterFrames = idleAfterFrames
    }

    /// Left and right gains of the pan, each 0...1.
    var panGains: (Float, Float) { (min(1, 1 - pan), min(1, 1 + pan)) }

    /// Converts and queues input frames to be heard from timeline frame `at`; frames that
    /// land before `readPosition` are too late and dropped. Returns the input frames taken
    /// (fewer when the queue is full).
    mutating func enqueue(
        frames: Int, format: SourceFormat, at: Int64, readPosition: Int64,
        sample: (Int, Int) -> Float
    ) -> Int {
        if converter.format != format || fedUntil != at { converter.reset(to: format) }
        let room = queue.room(at: at, readPosition: readPosition)
        var taken = frames
        while taken > 0, converter.outputFrames(forInput: taken) > room {
            taken = taken * room / converter.outputFrames(forInput: taken)
        }
        let produced = converter.outputFrames(forInput: taken)
        let writeFrom = max(at, readPosition)
        let end = at + Int64(produced)
        if end > writeFrom {
            queue.reserve(at: writeFrom, frames: Int(end - writeFrom), readPosition: readPosition)
            let skipped = Int(writeFrom - at)
            if format == .native {
                // Straight into the ring: no conversion, no copy between.
                queue.forEachRun(from: writeFrom, frames: Int(end - writeFrom)) { run, offset, count in
                    let first = skipped + offset
                    for index in 0..<count {
                        run[2 * index] = sample(first + index, 0)
                        run[2 * index + 1] = sample(first + index, 1)
                    }
                }
            } else {
                withUnsafeTemporaryAllocation(of: Float.self, capacity: max(1, produced) * AudioFormat.channelCount) {
                    buffer in
                    _ = converter.convert(inputFrames: taken, into: buffer.baseAddress!, sample: sample)
                    queue.forEachRun(from: writeFrom, frames: Int(end - writeFrom)) { run, offset, count in
                        run.update(
                            from: buffer.baseAddress! + (skipped + offset) * AudioFormat.channelCount,
                            count: count * AudioFormat.channelCount)
                    }
                }
            }
        } else if format != .native {
            withUnsafeTemporaryAllocation(of: Float.self, capacity: max(1, produced) * AudioFormat.channelCount) {
                buffer in
                _ = converter.convert(inputFrames: taken, into: buffer.baseAddress!, sample: sample)
            }
        }
        fedUntil = end
        if produced > 0 { isIdle = false }
        return taken
    }

    /// Queues interleaved stereo frames in the internal format from timeline frame `at`
    /// (the fast path: copied in runs); returns the frames taken.
    mutating func enqueue(native samples: UnsafePointer<Float>, frames: Int, at: Int64, readPosition: Int64) -> Int {
        let taken = min(frames, queue.room(at: at, readPosition: readPosition))
        let writeFrom = max(at, readPosition)
        let end = at + Int64(taken)
        if end > writeFrom {
            queue.reserve(at: writeFrom, frames: Int(end - writeFrom), readPosition: readPosition)
            let skipped = Int(writeFrom - at)
            queue.forEachRun(from: writeFrom, frames: Int(end - writeFrom)) { run, offset, count in
                run.update(
                    from: samples + (skipped + offset) * AudioFormat.channelCount,
                    count: count * AudioFormat.channelCount)
            }
        }
        converter.reset(to: .native)
        fedUntil = end
        if taken > 0 { isIdle = false }
        return taken
    }

    /// Adds frames `position..<position + frames` (with level and pan) to `out`, then
    /// forgets them; a source with nothing there moves its level along and may turn idle.
    mutating func add(into out: UnsafeMutablePointer<Float>, frames: Int, position: Int64) {
        let end = position + Int64(frames)
        let from = max(queue.start, position)
        let to = min(queue.end, end)
        defer { queue.drop(before: end) }
        guard !isIdle, from < to else {
            level.advance(frames: frames)
            if !isIdle, end - queue.end >= idleAfterFrames { isIdle = true }
            return
        }
        if from > position { level.advance(frames: Int(from - position)) }
        var ramp = level
        let pan = panGains
        queue.forEachRun(from: from, frames: Int(to - from)) { run, offset, count in
            Blend.add(
                run, to: out + (Int(from - position) + offset) * AudioFormat.channelCount, count: count, ramp: &ramp,
                pan: pan)
        }
        level = ramp
        if to < end { level.advance(frames: Int(end - to)) }
    }

    /// Applies level and pan to frames of this source that are already in `out` (the
    /// programme, rendered in place): no queue, no copy.
    mutating func scale(inPlace out: UnsafeMutablePointer<Float>, frames: Int, position: Int64) {
        Blend.scale(out, count: frames, ramp: &level, pan: panGains)
        queue.drop(before: position + Int64(frames))
        isIdle = false
    }

    /// Lets `frames` frames pass unheard.
    mutating func skip(frames: Int, position: Int64) {
        level.advance(frames: frames)
        queue.drop(before: position + Int64(frames))
    }
}
