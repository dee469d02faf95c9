import DelayboxEngine
import Synchronization

/// A single-producer, single-consumer ring of interleaved stereo Float frames: the
/// playout thread writes what the engine rendered, the audio thread reads a period at a
/// time. Lock-free and allocation-free after `init`: each side advances only its own
/// counter (release) after touching the samples, and reads the other's (acquire).
public final class FrameRing: @unchecked Sendable {
    /// Frames the ring holds at most.
    public let capacityFrames: Int
    private let storage: UnsafeMutablePointer<Float>
    /// Frames ever written (producer-owned) and ever read (consumer-owned).
    private let writtenFrames = Atomic<Int>(0)
    private let readFrames = Atomic<Int>(0)

    public init(capacityFrames: Int) {
        precondition(capacityFrames > 0)
        self.capacityFrames = capacityFrames
        storage = .allocate(capacity: capacityFrames * AudioFormat.channelCount)
        storage.initialize(repeating: 0, count: capacityFrames * AudioFormat.channelCount)
    }

    deinit { storage.deallocate() }

    /// Frames written and not yet read.
    public var fillFrames: Int { writtenFrames.load(ordering: .acquiring) - readFrames.load(ordering: .acquiring) }

    /// Frames ever written: the index of the next frame the producer writes.
    public var totalWritten: Int { writtenFrames.load(ordering: .acquiring) }

    /// Frames ever read: the index of the next frame the consumer reads.
    public var totalRead: Int { readFrames.load(ordering: .acquiring) }

    /// Producer: appends as many of `frames` as fit; returns how many frames were taken.
    @discardableResult
    public func write(_ samples: UnsafeBufferPointer<Float>) -> Int {
        let written = writtenFrames.load(ordering: .relaxed)
        let room = capacityFrames - (written - readFrames.load(ordering: .acquiring))
        let count = min(room, samples.count / AudioFormat.channelCount)
        copy(count: count, ringStart: written) { ring, offset, run in
            (ring).update(
                from: samples.baseAddress! + offset * AudioFormat.channelCount, count: run * AudioFormat.channelCount)
        }
        writtenFrames.store(written + count, ordering: .releasing)
        return count
    }

    /// Consumer: takes exactly `frames` frames into `destination`, or nothing (returns
    /// false) when fewer are held.
    public func read(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Bool {
        let read = readFrames.load(ordering: .relaxed)
        guard writtenFrames.load(ordering: .acquiring) - read >= frames else { return false }
        copy(count: frames, ringStart: read) { ring, offset, run in
            (destination + offset * AudioFormat.channelCount).update(from: ring, count: run * AudioFormat.channelCount)
        }
        readFrames.store(read + frames, ordering: .releasing)
        return true
    }

    /// Consumer: drops up to `frames` frames (the device is gone, time goes on); returns
    /// how many.
    @discardableResult
    public func discard(frames: Int) -> Int {
        let read = readFrames.load(ordering: .relaxed)
        let count = min(frames, writtenFrames.load(ordering: .acquiring) - read)
        readFrames.store(read + count, ordering: .releasing)
        return count
    }

    /// Calls `body` for the one or two contiguous runs of the ring that `count` frames
    /// from frame index `ringStart` occupy: (ring pointer, offset into the caller's
    /// frames, run length).
    private func copy(count: Int, ringStart: Int, _ body: (UnsafeMutablePointer<Float>, Int, Int) -> Void) {
        guard count > 0 else { return }
        let start = ringStart % capacityFrames
        let first = min(count, capacityFrames - start)
        body(storage + start * AudioFormat.channelCount, 0, first)
        if first < count { body(storage, first, count - first) }
    }
}
