import DelayboxUnits

/// What an output device was opened with. The engine always renders 48 kHz stereo
/// Float (`AudioFormat`); a driver converts to this once, as it writes.
public struct OutputFormat: Sendable, Equatable, CustomStringConvertible {
    /// Frames per second; drivers refuse a device that cannot run at the engine's rate
    /// rather than resample silently (ALSA's `plughw:` and `default` can convert).
    public var rate: Int
    /// Interleaved channels per frame: 1 (the programme is mixed down), 2, or more (the
    /// programme goes to the first two, the rest are silent).
    public var channels: Int
    public var sampleFormat: SampleFormat

    public init(rate: Int, channels: Int, sampleFormat: SampleFormat) {
        self.rate = rate
        self.channels = channels
        self.sampleFormat = sampleFormat
    }

    /// Bytes one frame takes on the device.
    public var bytesPerFrame: Int { channels * sampleFormat.bytesPerSample }

    public var description: String { "\(rate) Hz, \(channels) ch, \(sampleFormat.rawValue)" }
}
