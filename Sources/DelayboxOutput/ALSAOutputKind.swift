import DelayboxALSA
import DelayboxAudio
import DelayboxEngine

/// An ALSA PCM (`alsa:hw:CARD=…,DEV=0`, `alsa:default`, a plugin name; a bare name is one
/// too): the board's codec.
public struct ALSAOutputKind: OutputKind {
    public static let scheme = "alsa"
    /// The PCM's name.
    public let device: String
    public var argument: String? { device }
    public var pacesItself: Bool { true }

    public init?(argument: String?) {
        guard let argument, !argument.isEmpty, !argument.contains(" ") else { return nil }
        device = argument
    }

    public func open(
        _ request: OutputDevice.Request, reopening: Bool, clock: any MonotonicClock,
        sleeper: any Sleeper
    ) throws(OutputError) -> any OutputDriver {
        let alsa = ALSAOutput.Request(
            device: device, sampleFormat: request.sampleFormat, periodFrames: request.periodFrames,
            periods: request.periods)
        return try ALSAOutput(alsa, clock: clock, sleeper: sleeper)
    }

    public func mixer(control: String) throws(OutputError) -> (any HardwareVolume)? {
        try ALSAMixer(device: device, control: control)
    }
}
