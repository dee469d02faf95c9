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
    mutating func enqueue(frames: Int, format: SourceFormat, at: Int64, readPosition: Int64,
                          sample: (Int, Int) -> Float) -> Int {
        if converter.format != format || fedUntil != at { converter.reset(to: format) }
        let room = queue.room(at: at, readPosition: readPosition)
        var taken = frames
        while taken > 0, converter.outputFrames(forInput: taken) > room {
            taken = taken * room / converter.outputFrames(forInput: taken)
        }
        let produced = converter.outputFrames(forInput: taken)
        let writeFrom = max(at, readPosition)
        let end = at + Int64(produced)
        if end > writeFrom { queue.reserve(at: writeFrom, frames: Int(end - writeFrom), readPosition: readPosition) }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: max(1, produced) * AudioFormat.channelCount) { buffer in
            let written = converter.convert(inputFrames: taken, into: buffer.baseAddress!, sample: sample)
            for index in 0..<written where at + Int64(index) >= writeFrom {
                queue.write(at + Int64(index), left: buffer[2 * index], right: buffer[2 * index + 1])
            }
        }
        fedUntil = end
        if produced > 0 { isIdle = false }
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
        let (leftPan, rightPan) = panGains
        var frame = from
        var offset = Int(from - position) * AudioFormat.channelCount
        while frame < to {
            let gain = level.next()
            out[offset] += queue.sample(frame, 0) * gain * leftPan
            out[offset + 1] += queue.sample(frame, 1) * gain * rightPan
            offset += AudioFormat.channelCount
            frame += 1
        }
        if to < end { level.advance(frames: Int(end - to)) }
    }

    /// Lets `frames` frames pass unheard.
    mutating func skip(frames: Int, position: Int64) {
        level.advance(frames: frames)
        queue.drop(before: position + Int64(frames))
    }
}
