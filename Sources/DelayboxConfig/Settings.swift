import FoundationEssentials

/// What the listener set and expects back after a power cut: delay, volume, channel,
/// presets, ads on/off. Saved to the state file (`SettingsFile`), debounced.
public struct Settings: Sendable, Equatable, Codable {
    /// The delay in force (ms).
    public var delayMs: Int64
    /// 0-100 on the perceptual curve.
    public var volume: Int
    /// The selected channel's name.
    public var channel: String?
    /// Saved delays (ms) by preset slot, 1 and up.
    public var presets: [Int: Int64]
    public var adsEnabled: Bool

    public init(delayMs: Int64, volume: Int, channel: String? = nil, presets: [Int: Int64] = [:], adsEnabled: Bool = true) {
        self.delayMs = delayMs
        self.volume = volume
        self.channel = channel
        self.presets = presets
        self.adsEnabled = adsEnabled
    }

    /// The settings of a first start, from the board's defaults.
    public init(defaults: Defaults) {
        self.init(delayMs: defaults.delayMs, volume: defaults.volume)
    }

    /// The file's format version: a file of another version is read as corrupt.
    static let formatVersion = 1

    private struct File: Codable {
        var version: Int
        var settings: Settings
    }

    /// The state file's bytes: one JSON object, keys sorted (diffs read well).
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return (try? encoder.encode(File(version: Self.formatVersion, settings: self))) ?? Data()
    }

    /// Reads a state file's bytes, or says why they are not valid settings.
    public static func decode(_ data: Data, maxDelayMs: Int64) -> Result<Settings, SettingsProblem> {
        guard !data.isEmpty else { return .failure(SettingsProblem("the state file is empty")) }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            return .failure(SettingsProblem("the state file is not valid: \(error)"))
        }
        guard file.version == formatVersion else {
            return .failure(SettingsProblem("the state file has format version \(file.version); this build reads \(formatVersion)"))
        }
        let settings = file.settings
        guard (0...maxDelayMs).contains(settings.delayMs), (0...100).contains(settings.volume),
              settings.presets.values.allSatisfy({ (0...maxDelayMs).contains($0) }) else {
            return .failure(SettingsProblem("the state file holds values out of range (delay \(settings.delayMs) ms, volume \(settings.volume))"))
        }
        return .success(settings)
    }
}

/// Why a state file was not used.
public struct SettingsProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
