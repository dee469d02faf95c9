/// The one internal audio format of the engine: 48 kHz, stereo, interleaved Float32.
///
/// Why this format:
/// - 48 kHz is the native rate of Opus and of the codecs on the boards we support
///   (PCM5122, WM8960 run it without resampling), and an integer number of frames fits
///   every millisecond (48), so millisecond settings map to frames exactly.
/// - Stereo because music, ads and pan need it; a mono programme is duplicated once at
///   decode time, which costs less than branching on channel count in every loop.
/// - Float32 gives the mixer headroom above full scale (sums are limited once, at the
///   end) and keeps gain ramps free of quantisation; 24 bits of mantissa exceed every DAC.
public enum AudioFormat {
    /// Frames per second.
    public static let sampleRate = 48_000
    /// Interleaved channels per frame (left, right).
    public static let channelCount = 2
    /// Frames in one millisecond.
    public static let framesPerMillisecond = sampleRate / 1000
    /// The highest level anything reaches at the jack (linear, −1 dBFS = 10^(−1/20)): the
    /// mix's limiter holds the programme under it, and the controls' sounds added after
    /// the ring duck the programme to stay under it too.
    public static let ceiling: Float = 0.891_250_94

    /// Frames in `milliseconds` ms.
    @inlinable
    public static func frames(milliseconds: Int64) -> Int64 { milliseconds * Int64(framesPerMillisecond) }

    /// Milliseconds in `frames` frames, rounded towards zero.
    @inlinable
    public static func milliseconds(frames: Int64) -> Int64 { frames / Int64(framesPerMillisecond) }

    /// Milliseconds in `frames` frames, as a fraction.
    @inlinable
    public static func exactMilliseconds(frames: Int64) -> Double { Double(frames) / Double(framesPerMillisecond) }
}
