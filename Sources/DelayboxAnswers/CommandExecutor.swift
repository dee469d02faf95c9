import DelayboxCommands
import DelayboxConfig
import DelayboxEngine

/// Carries out commands — from buttons, the console or the control socket alike — on the
/// engine and the settings, and says how it went, so the door that asked can answer (a
/// console line, a feedback sound). Runs on the playout thread, which owns the engine.
public final class CommandExecutor {
    public enum Outcome: Sendable, Equatable {
        case done
        /// Done, but held at a limit (delay at the maximum, volume at `max_volume`).
        case limitReached
        /// Done: the delay set is longer than the audio held, and is reached in `in`
        /// (playout waits; recording goes on).
        case reaching(TimeAmount, in: TimeAmount)
        case refused(String)
    }

    private var engine: PlaybackEngine
    public private(set) var settings: Settings
    /// Marks the settings for a debounced save.
    public private(set) var saver = SaveDebouncer()
    public private(set) var muted = false

    /// The loudest any door may set (`defaults.max_volume`).
    public private(set) var maxVolume: Int

    public init(engine: PlaybackEngine, settings: Settings, maxVolume: Int = 100) {
        self.engine = engine
        self.settings = settings
        self.maxVolume = maxVolume
    }

    /// A new cap from the config; a volume above it comes down to it (true when it did).
    @discardableResult
    public func limitVolume(to maximum: Int, now: Instant) -> Bool {
        maxVolume = maximum
        guard settings.volume > maximum else { return false }
        _ = setVolume(maximum, now: now)
        return true
    }

    @discardableResult
    public func execute(_ command: Command, now: Instant) -> Outcome {
        switch command {
        case .adjustDelay(let milliseconds):
            return setDelay(engine.status(at: now).delay + .milliseconds(milliseconds), now: now)
        case .setDelay(let milliseconds):
            return setDelay(.milliseconds(milliseconds), now: now)
        case .syncDelay(let milliseconds):
            return syncDelay(by: .milliseconds(milliseconds), now: now)
        case .jumpToLive:
            remember(delay: engine.jumpToLive(now: now), now: now)
            return .done
        case .adjustVolume(let steps):
            return setVolume(settings.volume + steps, now: now)
        case .setVolume(let volume):
            return setVolume(volume, now: now)
        case .toggleMute:
            muted.toggle()
            return .done
        case .setMuted(let value):
            muted = value
            return .done
        case .playPause:
            if engine.state == .paused { engine.resume(now: now) } else { engine.pause(now: now) }
            return .done
        case .pause:
            engine.pause(now: now)
            return .done
        case .resume:
            engine.resume(now: now)
            return .done
        case .recallPreset(let slot):
            guard let delay = settings.presets[slot] else { return .refused("preset \(slot) is empty") }
            return setDelay(.milliseconds(delay), now: now)
        case .savePreset(let slot):
            settings.presets[slot] = engine.status(at: now).delay.milliseconds
            saver.changed(at: now)
            return .done
        case .setAds(let enabled):
            settings.adsEnabled = enabled
            saver.changed(at: now)
            return .done
        case .toggleKnobMode, .nextChannel, .sayAddress, .factoryReset:
            return .done  // the control surface and the playout act on these
        }
    }

    /// Carries on with a new channel's engine; the channel is remembered.
    public func attach(_ engine: PlaybackEngine, channel: String, now: Instant) {
        self.engine = engine
        settings.channel = channel
        saver.changed(at: now)
    }

    /// Keeps the clock error (ppm) `url`'s station was followed at, to a tenth; a change
    /// under half a ppm is not worth a write to the card. Past `Settings.stationClocksKept`
    /// another station's is let go (the first by URL: they are few and rarely change).
    public func remember(stationPpm ppm: Double, of url: String, now: Instant) {
        var clocks = settings.stationClocks ?? [:]
        if let kept = clocks[url], abs(kept - ppm) < 0.5 { return }
        clocks[url] = (ppm * 10).rounded() / 10
        while clocks.count > Settings.stationClocksKept, let any = clocks.keys.sorted().first(where: { $0 != url }) {
            clocks[any] = nil
        }
        settings.stationClocks = clocks
        saver.changed(at: now)
    }

    /// Whether the settings are due to be saved at `now` (then they count as saved).
    public func settingsDueForSave(at now: Instant) -> Bool { saver.shouldSave(at: now) }

    private func setDelay(_ delay: TimeAmount, now: Instant) -> Outcome {
        let set = engine.setDelay(delay, now: now)
        remember(delay: set, now: now)
        if let wait = engine.status(at: now).delayToBuild { return .reaching(set, in: wait) }
        return set == delay ? .done : .limitReached
    }

    /// Tap-to-sync's measurement: the delay moves by it, unless that is out of range — a
    /// mistaken tap must not throw the delay to a limit.
    private func syncDelay(by measured: TimeAmount, now: Instant) -> Outcome {
        let status = engine.status(at: now)
        let target = status.delay + measured
        let maximum = engine.configuration.maxDelay
        let seconds = { (amount: TimeAmount) in String(amount.seconds) + " s" }
        if target < status.minimumDelay {
            return .refused(
                "tap-to-sync: the TV was \(seconds(.zero - measured)) ahead; the delay (\(seconds(status.delay))) cannot go below \(seconds(status.minimumDelay))"
            )
        }
        if target > maximum {
            return .refused(
                "tap-to-sync: the TV was \(seconds(measured)) behind; the delay (\(seconds(status.delay))) cannot go above \(seconds(maximum))"
            )
        }
        return setDelay(target, now: now)
    }

    private func setVolume(_ volume: Int, now: Instant) -> Outcome {
        let clamped = min(maxVolume, max(0, volume))
        settings.volume = clamped
        saver.changed(at: now)
        return clamped == volume ? .done : .limitReached
    }

    private func remember(delay: TimeAmount, now: Instant) {
        settings.delay = delay
        saver.changed(at: now)
    }
}
