import DelayboxPlatform
import DelayboxState
import FoundationEssentials

/// `factory reset` (the console, the page with its password, a button held through
/// power-on): the files that make a box its owner's are removed — the listener's settings
/// (`state.json`: delay, volume, presets, channel, the stations' clocks), what the console
/// saved (`config.yaml`), the page's password, daily updates switched off (`daily-updates`),
/// the delay journal (a restart would resume the old delay from it) and, when asked, the hotspot's own password — and a mark is left,
/// so that the box started again says it was reset and lets the page's password be chosen
/// (`takeMark`). The board file and the site file are root's, and the mute music and ads
/// fetched are only a cache: they stay.
public struct FactoryReset: Sendable {
    /// The exit status with which `delaybox run` asks to be started again (systemd's
    /// `Restart=on-failure` does; docs/deploy.md).
    public static let restartStatus: Int32 = 75

    /// The state file (its directory holds the rest).
    let statePath: String
    /// What the console's `config save` wrote; nil: nothing.
    let consoleConfigPath: String?
    /// The delay journal's directory; nil: none.
    let journalDirectory: String?

    public init(statePath: String, consoleConfigPath: String?, journalDirectory: String?) {
        (self.statePath, self.consoleConfigPath, self.journalDirectory) = (
            statePath, consoleConfigPath, journalDirectory
        )
    }

    private var directory: String { URL(fileURLWithPath: statePath).deletingLastPathComponent().path }

    /// The mark a reset leaves beside the state file.
    public static func markPath(besideState statePath: String) -> String {
        URL(fileURLWithPath: statePath).deletingLastPathComponent().appendingPathComponent("factory-reset").path
    }

    /// Removes the files, then leaves the mark, durably; nil when done, else what failed
    /// (what was removed before it stays removed: a reset asked again finishes it).
    public func perform(forgetWiFi: Bool) -> String? {
        var files =
            [statePath, directory + "/web-password", directory + "/daily-updates"]
            + (consoleConfigPath.map { [$0] } ?? [])
        if forgetWiFi { files.append(directory + "/hotspot-password") }
        files += Self.journalFiles(in: journalDirectory)
        do {
            for file in files { try DurableFile.remove(file) }
            let mark = forgetWiFi ? Self.forgettingMark : "reset\n"
            try DurableFile.write(Array(mark.utf8), to: Self.markPath(besideState: statePath), mode: 0o600)
            return nil
        } catch {
            return ErrorText.of(error)
        }
    }

    /// The delay journal's files (a restart resumes the delay they hold); none without one.
    static func journalFiles(in directory: String?) -> [String] {
        guard let directory else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).map { directory + "/" + $0 }
    }

    /// The mark of a reset that forgets the Wi-Fi too: the networks are forgotten by the
    /// next start's Wi-Fi keeper (its root helper takes tens of seconds: the box that reset
    /// stops at once).
    static let forgettingMark = "reset\nforget-wifi\n"

    /// What a reset leaves for the next start.
    public struct Mark: Equatable, Sendable {
        /// The networks the box joined are to be forgotten.
        public var forgetWiFi: Bool
        public init(forgetWiFi: Bool) { self.forgetWiFi = forgetWiFi }
    }

    /// How the box's last run ended: nil, not in a reset. The mark is removed (once told,
    /// told).
    public static func takeMark(besideState statePath: String) -> Mark? {
        let mark = markPath(besideState: statePath)
        guard let text = try? String(contentsOfFile: mark, encoding: .utf8) else { return nil }
        try? DurableFile.remove(mark)
        return Mark(forgetWiFi: text == forgettingMark)
    }
}
