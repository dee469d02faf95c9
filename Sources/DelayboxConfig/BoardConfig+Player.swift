import DelayboxEngine

extension BoardConfig {
    /// The board `delaybox play` is: `channels` played to `device` at `delay`, with no
    /// controls, no console and no programme mix; the engine's buffer and maximum delay.
    public static func player(
        channels: ChannelLineup, device: String, period: TimeAmount, delay: TimeAmount,
        outputLatency: TimeAmount = .zero
    ) -> BoardConfig {
        let engine = EngineConfiguration()
        return BoardConfig(
            name: "delaybox play", hat: .none, configTxt: [],
            audio: AudioSettings(
                device: device, fallback: nil, mixer: nil, rate: AudioSettings.engineRate, format: .s16,
                period: period, periods: 4, outputLatency: outputLatency),
            gpio: nil, console: nil, remote: nil, channels: channels,
            defaults: Defaults(
                initialBuffer: engine.initialBuffer, maxDelay: engine.maxDelay, delay: delay,
                delayStep: .milliseconds(100), volume: 100, clipCacheMB: 0, feedbackSounds: false))
    }
}
