import DelayboxEngine

/// One source's audio waiting to be mixed: a fixed ring of stereo frames addressed by
/// timeline frame (frame `f` lives at slot `f % capacity`), holding frames
/// `start..<end`. Audio enqueued after a gap leaves silence in the gap; audio enqueued
/// over held frames replaces them; audio for frames already mixed is too late and is
/// dropped. Allocated once: enqueueing and mixing never allocate, and audio moves in
/// contiguous runs (at most two per call), so the loops over it vectorise.
final class SourceQueue {
    let capacityFrames: Int
    private let storage: UnsafeMutablePointer<Float>
    /// First frame held.
    private(set) var start: Int64 = 0
    /// Frame after the last one held (`start == end`: empty).
    private(set) var end: Int64 = 0

    init(capacityFrames: Int) {
        self.capacityFrames = capacityFrames
        storage = .allocate(capacity: capacityFrames * AudioFormat.channelCount)
        storage.initialize(repeating: 0, count: capacityFrames * AudioFormat.channelCount)
    }

    deinit { storage.deallocate() }

    var isEmpty: Bool { start == end }

    /// Frames from `position` on that fit, given that nothing before `readPosition` is kept.
    func room(at position: Int64, readPosition: Int64) -> Int {
        let oldest = isEmpty ? max(position, readPosition) : max(start, readPosition)
        return max(0, Int(oldest + Int64(capacityFrames) - position))
    }

    /// Makes frames `position..<position + frames` writable, zeroing a gap before them.
    /// `frames` must not exceed `room(at:readPosition:)`; `position` must not be before
    /// `readPosition`.
    func reserve(at position: Int64, frames: Int, readPosition: Int64) {
        if isEmpty || position > end + Int64(capacityFrames) {
            start = position
            end = position
        }
        if start < readPosition { start = min(readPosition, end) }
        if position > end {
            let from = max(end, position - Int64(capacityFrames))
            forEachRun(from: from, frames: Int(position - from)) { run, _, count in
                run.update(repeating: 0, count: count * AudioFormat.channelCount)
            }
            end = position
        }
        end = max(end, position + Int64(frames))
        if end - start > Int64(capacityFrames) { start = end - Int64(capacityFrames) }
    }

    /// Calls `body(run, offset, frames)` for each contiguous run of storage holding
    /// timeline frames `from..<from + frames` (at most two), `offset` frames into the range.
    @inline(__always)
    func forEachRun(from: Int64, frames: Int, _ body: (UnsafeMutablePointer<Float>, Int, Int) -> Void) {
        var done = 0
        while done < frames {
            let slot = Int((from + Int64(done)) % Int64(capacityFrames))
            let count = min(frames - done, capacityFrames - slot)
            body(storage + slot * AudioFormat.channelCount, done, count)
            done += count
        }
    }

    /// Forgets frames before `position` (they have been mixed).
    func drop(before position: Int64) {
        if position >= end {
            start = end
        } else if position > start {
            start = position
        }
    }

    /// Forgets everything.
    func clear() { start = end }
}
