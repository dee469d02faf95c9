import DelayboxJSON
import DelayboxUnits
import FoundationEssentials

/// What the listener set and expects back after a power cut: delay, volume, channel,
/// presets, ads on/off. Saved to the state file (`SettingsFile`), debounced.
public struct Settings: Sendable, Equatable, Codable {
    /// The delay in force (the file's `delayMs`).
    @InMilliseconds public var delay: TimeAmount
    /// 0-100 on the perceptual curve.
    public var volume: Int
    /// The selected channel's name.
    public var channel: String?
    /// Saved delays (ms) by preset slot, 1 and up.
    public var presets: [Int: Int64]
    public var adsEnabled: Bool
    /// What the box learned of each station it played: its clock's error (ppm) by stream
    /// URL, so that a station played before starts locked (issue 67). Absent in a file an
    /// older release wrote; at most `stationClocksKept`.
    public var stationClocks: [String: Double]?
    /// Stations whose clock is kept: a box's channels and a few it no longer has.
    public static let stationClocksKept = 64

    private enum CodingKeys: String, CodingKey {
        case delay = "delayMs", volume, channel, presets, adsEnabled, stationClocks
    }

    public init(
        delay: TimeAmount, volume: Int, channel: String? = nil, presets: [Int: Int64] = [:], adsEnabled: Bool = true
    ) {
        self.delay = delay
        self.volume = volume
        self.channel = channel
        self.presets = presets
        self.adsEnabled = adsEnabled
    }

    /// The settings of a first start, from the board's defaults.
    public init(defaults: Defaults) {
        self.init(delay: defaults.delay, volume: defaults.volume)
    }

    /// These settings as the box starts with them: never louder than the installer's
    /// `max_volume` or `start_volume_max` (issue 44: a box left loud at night started loud
    /// in the morning); with the line that says so when the volume was lowered.
    public func forStart(_ defaults: Defaults) -> (settings: Settings, lowered: String?) {
        let ceiling = min(defaults.maxVolume, defaults.startVolumeMax)
        guard volume > ceiling else { return (self, nil) }
        var started = self
        started.volume = ceiling
        let key = defaults.startVolumeMax < defaults.maxVolume ? "defaults.start_volume_max" : "defaults.max_volume"
        return (started, "volume \(volume) was saved; starting at \(ceiling) (\(key))")
    }

    /// The file's format version: a file of another version is read as corrupt.
    static let formatVersion = 1

    private struct File: Codable {
        var version: Int
        var settings: Settings
    }

    /// The state file's bytes: one JSON object, keys sorted, a member a line (diffs read well).
    public func encoded() -> Data {
        Data(JSONText.pretty(JSONValue(encoding: File(version: Self.formatVersion, settings: self))).utf8)
    }

    /// Reads a state file's bytes, or says why they are not valid settings (`read`).
    public static func decode(_ data: Data, maxDelay: TimeAmount) -> Result<Settings, SettingsProblem> {
        read(data, maxDelay: maxDelay).map(\.settings)
    }

    /// Reads a state file's bytes: the settings, and what had to be brought within
    /// `maxDelay` (a delay or preset saved under a larger `max_delay` than the config's
    /// now: clamped to it, the rest kept — issue 44); or why the file is not valid
    /// settings at all (unreadable, another format, a negative delay, a volume beyond 0-100).
    public static func read(_ data: Data, maxDelay: TimeAmount) -> Result<
        (settings: Settings, clamped: [String]), SettingsProblem
    > {
        guard !data.isEmpty else { return .failure(SettingsProblem("the state file is empty")) }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            return .failure(SettingsProblem("the state file is not valid: \(error)"))
        }
        guard file.version == formatVersion else {
            return .failure(
                SettingsProblem("the state file has format version \(file.version); this build reads \(formatVersion)"))
        }
        return file.settings.checked(maxDelay: maxDelay)
    }

    /// These settings as read from a file (the state file, a backup): refused when a value
    /// is out of range (a negative delay, a volume beyond 0-100); a delay or preset above
    /// `maxDelay` brought down to it, said in `clamped`.
    public func checked(maxDelay: TimeAmount) -> Result<(settings: Settings, clamped: [String]), SettingsProblem> {
        var settings = self
        guard settings.delay >= .zero, (0...100).contains(settings.volume),
            settings.presets.values.allSatisfy({ $0 >= 0 })
        else {
            return .failure(
                SettingsProblem(
                    "values out of range (delay \(settings.delay.milliseconds) ms, volume \(settings.volume))"
                ))
        }
        var clamped: [String] = []
        let most = maxDelay.milliseconds
        if settings.delay > maxDelay {
            clamped.append("the delay \(settings.delay.milliseconds) ms is above max_delay (\(most) ms): \(most) ms")
            settings.delay = maxDelay
        }
        for (slot, delay) in settings.presets.sorted(by: { $0.key < $1.key }) where delay > most {
            clamped.append("preset \(slot) (\(delay) ms) is above max_delay: \(most) ms")
            settings.presets[slot] = most
        }
        return .success((settings, clamped))
    }
}

/// Why a state file was not used.
public struct SettingsProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
