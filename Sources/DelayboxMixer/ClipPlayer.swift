import DelayboxEngine

/// Plays an `AudioClip` into one mixer source, period by period: looped (mute music) or
/// once for at most a given length (an ad for its break). A missing clip plays silence for
/// its length, so levels and timing stay as scheduled.
struct ClipPlayer {
    let clip: AudioClip?
    let loops: Bool
    /// Frames left to play (nil: until stopped; looping music).
    private(set) var remainingFrames: Int64?
    /// Next frame of the clip to play.
    private var cursor = 0

    /// - Parameter startFrame: the clip's frame to start at (an ad joined mid-break).
    init(clip: AudioClip?, loops: Bool, lengthFrames: Int64?, startFrame: Int = 0) {
        self.clip = clip
        self.loops = loops
        remainingFrames = lengthFrames
        cursor = startFrame
    }

    var isFinished: Bool { remainingFrames.map { $0 <= 0 } ?? false }

    /// Enqueues the next `frames` frames at the mixer's position.
    mutating func play(frames: Int, into mixer: Mixer, source: Int) {
        var count = frames
        if let remaining = remainingFrames { count = Int(min(Int64(count), max(0, remaining))) }
        guard count > 0 else { return }
        remainingFrames = remainingFrames.map { $0 - Int64(count) }
        var at = mixer.position
        guard let clip, clip.frames > 0 else { return }  // silence: the source stays idle
        while count > 0 {
            if cursor >= clip.frames {
                guard loops else { return }
                cursor = 0
            }
            let piece = min(count, clip.frames - cursor)
            let start = cursor
            mixer.enqueue(source, frames: piece, at: at) { clip.sample(start + $0, $1) }
            cursor += piece
            at += Int64(piece)
            count -= piece
        }
    }
}
