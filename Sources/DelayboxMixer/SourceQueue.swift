import DelayboxEngine

/// One source's audio waiting to be mixed: a fixed ring of stereo frames addressed by
/// timeline frame (frame `f` lives at slot `f % capacity`), holding frames
/// `start..<end`. Audio enqueued after a gap leaves silence in the gap; audio enqueued
/// over held frames replaces them; audio for frames already mixed is too late and is
/// dropped. Allocated once: enqueueing and mixing never allocate.
struct SourceQueue {
    let capacityFrames: Int
    private var storage: [Float]
    /// First frame held.
    private(set) var start: Int64 = 0
    /// Frame after the last one held (`start == end`: empty).
    private(set) var end: Int64 = 0

    init(capacityFrames: Int) {
        self.capacityFrames = capacityFrames
        storage = [Float](repeating: 0, count: capacityFrames * AudioFormat.channelCount)
    }

    var isEmpty: Bool { start == end }

    /// Frames from `position` on that fit, given that nothing before `readPosition` is kept.
    func room(at position: Int64, readPosition: Int64) -> Int {
        let oldest = isEmpty ? max(position, readPosition) : max(start, readPosition)
        return max(0, Int(oldest + Int64(capacityFrames) - position))
    }

    /// Makes frames `position..<position + frames` writable, zeroing a gap before them.
    /// `frames` must not exceed `room(at:readPosition:)`; `position` must not be before
    /// `readPosition`.
    mutating func reserve(at position: Int64, frames: Int, readPosition: Int64) {
        if isEmpty || position > end + Int64(capacityFrames) {
            start = position
            end = position
        }
        if start < readPosition { start = min(readPosition, end) }
        if position > end {
            zero(from: end, to: position)
            end = position
        }
        end = max(end, position + Int64(frames))
        if end - start > Int64(capacityFrames) { start = end - Int64(capacityFrames) }
    }

    /// Interleaved sample `channel` of timeline frame `frame` (which must be held).
    @inline(__always)
    func sample(_ frame: Int64, _ channel: Int) -> Float {
        storage[slot(frame) * AudioFormat.channelCount + channel]
    }

    /// Writes timeline frame `frame` (reserved before).
    @inline(__always)
    mutating func write(_ frame: Int64, left: Float, right: Float) {
        let index = slot(frame) * AudioFormat.channelCount
        storage[index] = left
        storage[index + 1] = right
    }

    /// Forgets frames before `position` (they have been mixed).
    mutating func drop(before position: Int64) {
        if position >= end {
            start = end
        } else if position > start {
            start = position
        }
    }

    /// Forgets everything.
    mutating func clear() { start = end }

    @inline(__always)
    private func slot(_ frame: Int64) -> Int { Int(frame % Int64(capacityFrames)) }

    private mutating func zero(from: Int64, to: Int64) {
        var frame = max(from, to - Int64(capacityFrames))
        while frame < to {
            write(frame, left: 0, right: 0)
            frame += 1
        }
    }
}
