import ArgumentParser
import DelayboxConfig
import DelayboxConfigFile
import DelayboxPlatform
import DelayboxWiFi
import FoundationEssentials
import Glibc

/// `delaybox imager-cloud-init`: a flashed card's first boot applies what Raspberry Pi
/// Imager 2 wrote on its boot partition in cloud-init's form (`user-data`, `network-config`)
/// through the same helpers as Imager's firstrun.sh (deploy/image/delaybox-firstboot), then
/// removes both files: they hold a password hash and the Wi-Fi key, on a partition any
/// computer the card is put in reads.
struct ImagerCloudInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imager-cloud-init",
        abstract: "Apply Raspberry Pi Imager's cloud-init customisation from the boot partition (root).")

    @Option(help: "The boot partition, where Imager writes user-data and network-config.")
    var boot = "/boot/firmware"

    @Flag(help: "Say what would be done, change nothing, keep the files.")
    var dryRun = false

    @Option(help: "Where Imager's helpers are (raspberrypi-sys-mods/imager_custom, userconf-pi/userconf).")
    var helpers = "/usr/lib"

    @Option(help: "NetworkManager's directory of connections.")
    var connections = "/etc/NetworkManager/system-connections"

    @Option(help: "Where the kernel's module options are read.")
    var modprobe = "/etc/modprobe.d"

    func run() throws {
        let files = ["user-data", "network-config"].map { boot + "/" + $0 }
        guard files.contains(where: { FileManager.default.fileExists(atPath: $0) }) else {
            StandardStream.output.write("no cloud-init customisation in \(boot)\n")
            return
        }
        var diagnostics: [ConfigDiagnostic] = []
        let nodes = files.map { read($0, diagnostics: &diagnostics) }
        let customisation = ImagerCloudInit(userData: nodes[0], networkConfig: nodes[1])
        diagnostics += customisation.diagnostics
        for diagnostic in diagnostics { StandardStream.error.write(diagnostic.description + "\n") }
        var failed = diagnostics.contains { $0.severity == .error }
        for step in customisation.steps {
            let what = ImagerCloudInit.describe(step)
            guard !dryRun else {
                StandardStream.output.write("would set \(what)\n")
                continue
            }
            if let problem = apply(step) {
                StandardStream.error.write("imager-cloud-init: \(what): \(problem)\n")
                failed = true
            } else {
                // Unbuffered, so that the journal has the steps and their failures in order.
                StandardStream.output.write("set \(what)\n")
            }
        }
        guard !dryRun else { return }
        for file in files { unlink(file) }
        if failed { throw ExitCode(1) }
    }

    /// The file's tree; nil when it is absent or is no YAML (said in `diagnostics`).
    func read(_ path: String, diagnostics: inout [ConfigDiagnostic]) -> ConfigNode? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard let text = String(validating: data, as: UTF8.self) else {
            diagnostics.append(
                ConfigDiagnostic(.error, at: SourceLocation(file: path, line: 1, column: 1), "is not UTF-8 text"))
            return nil
        }
        return ConfigFile.parse(text, file: path, emptyAllowed: true, diagnostics: &diagnostics)
    }

    /// Carries out one step; what went wrong, or nil.
    func apply(_ step: ImagerCloudInit.Step) -> String? {
        let custom = helpers + "/raspberrypi-sys-mods/imager_custom"
        switch step {
        case .hostname(let name): return helper(custom, ["set_hostname", name])
        case .sshKeys(let keys): return helper(custom, ["enable_ssh", "-k"] + keys)
        case .sshPasswords: return helper(custom, ["enable_ssh"])
        case .user(let name, let hash): return helper(helpers + "/userconf-pi/userconf", [name, hash])
        case .keymap(let layout): return helper(custom, ["set_keymap", layout])
        case .timezone(let zone): return helper(custom, ["set_timezone", zone])
        case .wifi(let ssid, let password, let hidden, let country):
            do {
                let network = try SavedNetwork(ssid: ssid, password: password, country: country, hidden: hidden)
                try network.save(connections: connections, modprobe: modprobe)
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    func helper(_ program: String, _ arguments: [String]) -> String? {
        let outcome = ChildProcess.run(program, arguments)
        guard outcome.status != 0 else { return nil }
        let said = outcome.text.split(whereSeparator: \.isNewline).joined(separator: "; ")
        return said.isEmpty ? "\(program) failed" : said
    }
}
