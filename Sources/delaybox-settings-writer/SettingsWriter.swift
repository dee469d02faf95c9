import DelayboxConfig
import DelayboxState
import Foundation

/// Test helper for the power-cut test: saves settings generation after generation to the
/// state file given, as fast as it can, until it is killed, and writes one byte to stdout
/// after its first save. Every field of generation n is derived from n, so a file mixing
/// two generations is detectable.
///
///     delaybox-settings-writer PATH FIRST_GENERATION
@main
enum SettingsWriter {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let first = Int64(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: delaybox-settings-writer PATH FIRST_GENERATION\n".utf8))
            exit(2)
        }
        let file = SettingsFile(path: arguments[1])
        var generation = first
        try file.save(generation.settings)
        FileHandle.standardOutput.write(Data("s".utf8))
        while true {
            generation += 1
            try file.save(generation.settings)
        }
    }
}

extension Int64 {
    /// The settings of generation `self`.
    var settings: Settings {
        Settings(delayMs: self % 300_000, volume: Int(self % 101), channel: "channel-\(self)",
                 presets: [1: self % 1_000, 2: (self * 7) % 300_000, 3: self % 300_000], adsEnabled: self % 2 == 0)
    }
}
