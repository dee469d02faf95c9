import Glibc  // sin() for the curve, computed once

/// An equal-power crossfade from an outgoing to an incoming signal.
///
/// Equal power (cos/sin) because the two sides of a delay change are different moments
/// of the programme, i.e. uncorrelated: a linear fade would dip by 3 dB in the middle.
struct Crossfade {
    /// Gains of the incoming side per frame; the outgoing side uses the mirror image.
    private let curve: [Float]
    /// Frames of the crossfade already applied.
    private(set) var progress: Int

    init(lengthFrames: Int) {
        let length = max(lengthFrames, 1)
        curve = (0..<length).map { frame in
            let phase = Double.pi / 2 * (Double(frame) + 0.5) / Double(length)
            return Float(sin(phase))
        }
        progress = length
    }

    var lengthFrames: Int { curve.count }
    /// Whether no crossfade is under way.
    var isFinished: Bool { progress >= curve.count }

    mutating func restart() { progress = 0 }

    /// Mixes `frames` frames: `incoming` (in place) takes over from `outgoing`.
    /// Returns how many frames of the crossfade were consumed (the rest is incoming only).
    @discardableResult
    mutating func mix(incoming: UnsafeMutablePointer<Float>, outgoing: UnsafePointer<Float>, frames: Int) -> Int {
        let count = min(frames, curve.count - progress)
        let channels = AudioFormat.channelCount
        for frame in 0..<count {
            let fadeIn = curve[progress + frame]
            let fadeOut = curve[curve.count - 1 - progress - frame]
            for channel in 0..<channels {
                let index = frame * channels + channel
                incoming[index] = incoming[index] * fadeIn + outgoing[index] * fadeOut
            }
        }
        progress += count
        return count
    }
}
