/// Keeps the heard delay exact while the DAC's clock runs slightly fast or slow against
/// the system clock the delay is measured by (tens of ppm: 0.2 s an hour between two
/// ordinary sound cards), by slipping single frames: playout reads one frame more or
/// one fewer in a chunk, and that chunk is stretched back to its length (`FrameSlip`),
/// a 0.1 % pitch change for 20 ms — inaudible, and unlike a dropped or repeated frame it
/// leaves no step in the waveform. A resampler running all the time would do the same
/// with more work on every frame; jumps stay for errors beyond the resync threshold.
///
/// The error is filtered over about a second of output, so network jitter in the
/// arrival-time placement and a period of jitter in the output delay average out; at
/// most one frame per chunk (20 ms) corrects up to ~1000 ppm.
struct DriftCorrector: Sendable {
    /// Filtered delay error (frames): positive when playout runs ahead of the position the
    /// set delay asks for (the DAC is fast).
    private(set) var error = 0.0
    /// Net frames slipped per million rendered, filtered over about a minute: the drift
    /// between the DAC and the system clock (positive: the DAC is fast).
    private(set) var driftPpm = 0.0
    /// Filter time constants (frames of output).
    private let errorTimeConstant = Double(AudioFormat.sampleRate)
    private let driftTimeConstant = Double(AudioFormat.sampleRate * 60)

    /// Before a chunk of `frames`: takes the unfiltered error (frames) and returns how many
    /// frames more (+1) or fewer (-1) playout should read for it, or 0.
    mutating func slip(forError measured: Int64, frames: Int) -> Int {
        error += (Double(measured) - error) * min(1, Double(frames) / errorTimeConstant)
        var slip = 0
        if error > 1 {
            slip = -1
        } else if error < -1 {
            slip = 1
        }
        // The slip changes the error at once; the filter must not wait to see it.
        error += Double(slip)
        let rate = -Double(slip) / Double(frames) * 1e6
        driftPpm += (rate - driftPpm) * min(1, Double(frames) / driftTimeConstant)
        return slip
    }

    /// After a jump (resync, delay change, start): the error starts from what it is now.
    mutating func restart(error measured: Int64) { error = Double(measured) }
}
