import DelayboxEngine
import Synchronization

/// Short sounds — the controls' feedback — that the audio thread mixes into each period
/// as it goes to the device: heard within the device's buffer (at most 80 ms on the
/// shipped boards) of being asked for, however far ahead the playout thread has rendered
/// the programme into the ring.
///
/// Threads: `play` is for one thread (the playout); `mix` is the audio thread's, where it
/// allocates nothing and takes no lock. The sounds are given once and never change.
public final class CuePlayer: @unchecked Sendable {
    // @unchecked: `sounds` is immutable after init; `requests` is a single-producer,
    // single-consumer queue ordered by the two atomics; `voices` is the audio thread's.
    private let sounds: [UnsafeMutableBufferPointer<Float>]
    /// Sounds asked for and not yet started, by index, and when the control that asked for
    /// each was touched (ns on the clock the audio thread reads; `Int64.min`: not known).
    private let requests: UnsafeMutablePointer<Int>
    private let touched: UnsafeMutablePointer<Int64>
    private let asked = Atomic<Int>(0)
    private let started = Atomic<Int>(0)
    /// The sounds playing: index and the next frame, oldest first.
    private let voices: UnsafeMutablePointer<(sound: Int, frame: Int)>
    private var voiceCount = 0
    private static let capacity = 8
    /// The sounds of one chunk, summed apart from the programme (interleaved stereo).
    private let scratch: UnsafeMutablePointer<Float>
    private static let chunkFrames = 1_024
    /// The programme's gain under the sounds: below 1 while a sound over a loud programme
    /// would pass the ceiling (issue 44: a click over a full-scale programme clipped).
    private var programmeGain: Float = 1
    /// The latest touch among the sounds the last `mix` started (`Int64.min`: none).
    private var startedTouch = Int64.min
    /// The last control-to-sound time measured, packed for one atomic load: the count of
    /// measurements in the high 32 bits, the time in microseconds in the low 32.
    private let lastTouchToSound = Atomic<UInt64>(0)

    /// - Parameter sounds: each interleaved stereo, full scale ±1.
    public init(sounds: [[Float]]) {
        self.sounds = sounds.map { samples in
            let copy = UnsafeMutableBufferPointer<Float>.allocate(capacity: samples.count)
            _ = copy.initialize(from: samples)
            return copy
        }
        requests = .allocate(capacity: Self.capacity)
        touched = .allocate(capacity: Self.capacity)
        voices = .allocate(capacity: Self.capacity)
        scratch = .allocate(capacity: Self.chunkFrames * 2)
    }

    deinit {
        sounds.forEach { $0.deallocate() }
        requests.deallocate()
        touched.deallocate()
        voices.deallocate()
        scratch.deallocate()
    }

    /// Plays sound `index` from the next period written; false (and nothing played) when
    /// eight are already waiting — the audio thread is not running.
    /// - Parameter touchedAt: when the control was touched (ns, the kernel's timestamp of
    ///   the edge or key, on the audio thread's clock), for `touchToSound`.
    @discardableResult
    public func play(_ index: Int, touchedAt: Int64? = nil) -> Bool {
        precondition(sounds.indices.contains(index))
        let next = asked.load(ordering: .relaxed)
        guard next - started.load(ordering: .acquiring) < Self.capacity else { return false }
        requests[next % Self.capacity] = index
        touched[next % Self.capacity] = touchedAt ?? .min
        asked.store(next + 1, ordering: .releasing)
        return true
    }

    /// Audio thread: adds what is playing to `frames` frames of interleaved stereo. Sounds
    /// asked for since the last call start at the buffer's first frame; beyond eight at
    /// once, the oldest is cut. Where the sum would pass the ceiling, the programme is
    /// ducked under the sounds (at once, for the chunk; back up in a ramp over the next).
    public func mix(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        var next = started.load(ordering: .relaxed)
        let last = asked.load(ordering: .acquiring)
        startedTouch = .min
        while next < last {
            if voiceCount == Self.capacity { remove(at: 0) }
            voices[voiceCount] = (requests[next % Self.capacity], 0)
            voiceCount += 1
            startedTouch = max(startedTouch, touched[next % Self.capacity])
            next += 1
        }
        started.store(next, ordering: .releasing)
        var done = 0
        while done < frames, voiceCount > 0 || programmeGain < 1 {
            let count = min(Self.chunkFrames, frames - done)
            mixChunk(into: buffer + done * 2, frames: count)
            done += count
        }
    }

    /// Audio thread, after the buffer given to `mix` went to the device: its first frame
    /// is heard at `nanoseconds` (the device's queue ahead of it). Measures the time from
    /// the touch to the sound for what that `mix` started.
    public func heard(at nanoseconds: Int64) {
        let (elapsed, overflow) = nanoseconds.subtractingReportingOverflow(startedTouch)
        guard startedTouch != .min, !overflow else { return }
        let microseconds = min(UInt64(clamping: max(0, elapsed / 1_000)), UInt64(UInt32.max))
        let count = (lastTouchToSound.load(ordering: .relaxed) >> 32) &+ 1
        lastTouchToSound.store(count << 32 | microseconds, ordering: .releasing)
        startedTouch = .min
    }

    /// The last touch-to-sound time measured (µs) and how many were measured so far
    /// (counting modulo 2^32): a reader that saw a count before knows whether it is new.
    public var touchToSound: (count: UInt32, microseconds: Int) {
        let packed = lastTouchToSound.load(ordering: .acquiring)
        return (UInt32(truncatingIfNeeded: packed >> 32), Int(packed & 0xFFFF_FFFF))
    }

    private func mixChunk(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        scratch.update(repeating: 0, count: frames * 2)
        var index = 0
        while index < voiceCount {
            let (sound, frame) = voices[index]
            let samples = sounds[sound]
            let count = min(frames, samples.count / 2 - frame)
            for sample in 0..<count * 2 { scratch[sample] += samples[frame * 2 + sample] }
            if frame + count >= samples.count / 2 {
                remove(at: index)
            } else {
                voices[index].frame = frame + count
                index += 1
            }
        }
        var soundPeak: Float = 0, programmePeak: Float = 0
        for sample in 0..<frames * 2 {
            soundPeak = max(soundPeak, abs(scratch[sample]))
            programmePeak = max(programmePeak, abs(buffer[sample]))
        }
        // |g·p + s| ≤ g·|p| + |s| ≤ ceiling for every sample of the chunk; a programme
        // without sounds over it is the mix's limiter's, untouched here.
        let target: Float =
            soundPeak == 0 || programmePeak + soundPeak <= AudioFormat.ceiling
            ? 1 : max(0, AudioFormat.ceiling - soundPeak) / programmePeak
        let start = min(programmeGain, target)
        for frame in 0..<frames {
            let gain = start + (target - start) * Float(frame + 1) / Float(frames)
            buffer[frame * 2] = buffer[frame * 2] * gain + scratch[frame * 2]
            buffer[frame * 2 + 1] = buffer[frame * 2 + 1] * gain + scratch[frame * 2 + 1]
        }
        programmeGain = target
    }

    private func remove(at index: Int) {
        for later in index..<(voiceCount - 1) { voices[later] = voices[later + 1] }
        voiceCount -= 1
    }
}
