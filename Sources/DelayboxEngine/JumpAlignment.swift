/// Where a correcting jump lands, to the frame: within `maximumLagFrames` of its target,
/// at the lag where the incoming audio best matches the outgoing over the crossfade.
///
/// A correction (a placement refined by arrival times, a resynchronisation) moves playout
/// by a few to tens of milliseconds within the same programme, so the two sides of its
/// crossfade are the same sound at two moments. A tone, or a voice's pitch, in opposite
/// phase on the two sides cancels in the middle of the crossfade: a 50 ms drop-out where
/// nothing was lost (a stream test's 440 Hz tone under load; in virtual time a 12.5 ms
/// correction of a 1 kHz tone fell to RMS 0.009: `CorrectionJumpTests`). Landing up to a
/// period of the sound away from the target lines the phases up; the drift corrector
/// slips the lag away afterwards (a frame per period, so 2 ms in about 2 s at 20 ms
/// periods — the lag is capped by the settle error so that it never triggers another
/// correction).
///
/// A listener's delay change is not aligned: it lands exactly where asked, and its two
/// sides are different moments of the programme anyway.
final class JumpAlignment {
    /// The largest lag either way (frames).
    let maximumLagFrames: Int
    /// Frames compared: the crossfade's length, at most 50 ms.
    let windowFrames: Int
    /// The outgoing head's next `windowFrames`, interleaved stereo.
    let outgoing: UnsafeMutableBufferPointer<Float>
    /// The incoming side from `maximumLagFrames` before the target, `windowFrames + 2 ×
    /// maximumLagFrames` frames, interleaved stereo.
    let incoming: UnsafeMutableBufferPointer<Float>

    init(maximumLagFrames: Int, crossfadeFrames: Int) {
        self.maximumLagFrames = max(0, maximumLagFrames)
        windowFrames = max(1, min(crossfadeFrames, Int(AudioFormat.frames(milliseconds: 50))))
        outgoing = .allocate(capacity: windowFrames * AudioFormat.channelCount)
        outgoing.initialize(repeating: 0)
        incoming = .allocate(capacity: (windowFrames + 2 * self.maximumLagFrames) * AudioFormat.channelCount)
        incoming.initialize(repeating: 0)
    }

    deinit {
        outgoing.deallocate()
        incoming.deallocate()
    }

    /// Frames the incoming side needs from `maximumLagFrames` before the target.
    var incomingFrames: Int { windowFrames + 2 * maximumLagFrames }

    /// The lag (frames, −maximum…+maximum) at which `incoming` best continues `outgoing`:
    /// the highest normalised correlation of the two channels' sum, the smallest lag among
    /// equals (a steady tone matches once per period). 0 when either side is silent or
    /// no lag makes them alike (a correlation of 0.5). Allocates nothing.
    func bestLag() -> Int {
        let channels = AudioFormat.channelCount
        let window = windowFrames
        let out = UnsafeBufferPointer(outgoing)
        let into = UnsafeBufferPointer(incoming)
        func mono(_ buffer: UnsafeBufferPointer<Float>, _ frame: Int) -> Float {
            var sum: Float = 0
            for channel in 0..<channels { sum += buffer[frame * channels + channel] }
            return sum
        }
        var outgoingEnergy: Float = 0
        for frame in 0..<window { outgoingEnergy += mono(out, frame) * mono(out, frame) }
        // Below -80 dBFS over the window: nothing to line up.
        let silence = Float(window) * 1e-8
        guard outgoingEnergy > silence else { return 0 }
        var best = 0
        var bestScore: Float = 0
        for step in 0...(2 * maximumLagFrames) {
            // 0, +1, -1, +2, -2, …: a score further out wins only when it is clearly
            // better, not by rounding (a steady tone's peaks a period apart are equal).
            let lag = step % 2 == 1 ? (step + 1) / 2 : -(step / 2)
            let start = lag + maximumLagFrames
            var product: Float = 0
            var energy: Float = 0
            for frame in 0..<window {
                let sample = mono(into, start + frame)
                product += mono(out, frame) * sample
                energy += sample * sample
            }
            guard energy > silence else { continue }
            let score = product / energy.squareRoot()
            if score > bestScore * 1.001 {
                bestScore = score
                best = lag
            }
        }
        // Sides that are not alike (another moment of the programme) gain nothing from a lag.
        return bestScore >= Self.alike * outgoingEnergy.squareRoot() ? best : 0
    }

    /// The normalised correlation from which two sides count as the same sound.
    static let alike: Float = 0.5
}
