import DelayboxEngine

/// How a source's audio arrives: channels and rate. The mixer converts it to the internal
/// format (48 kHz stereo Float) as it is enqueued: mono is copied to both sides, another
/// rate is resampled by linear interpolation (good enough for speech and UI sounds,
/// which is what arrives at other rates; programme audio is resampled by FFmpeg).
public struct SourceFormat: Sendable, Equatable {
    /// 1 or 2.
    public var channels: Int
    /// Frames per second.
    public var sampleRate: Int

    public init(channels: Int, sampleRate: Int) {
        precondition(channels == 1 || channels == 2, "a source is mono or stereo")
        precondition(sampleRate > 0)
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// The internal format: nothing to convert.
    public static let native = SourceFormat(channels: AudioFormat.channelCount, sampleRate: AudioFormat.sampleRate)
}
