import ArgumentParser
import DelayboxWiFi
import Glibc

/// `delaybox wifi-keyfile`: saves a Wi-Fi network before the box first runs — Raspberry Pi
/// Imager's "OS customisation" on a flashed card's first boot (deploy/image/imager_custom).
/// The password comes on standard input, never on the command line (any local user reads
/// another's argv).
struct WiFiKeyfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wifi-keyfile",
        abstract: "Save a Wi-Fi network for NetworkManager, its password read from standard input (root).")

    @Option(help: "The network's name.")
    var ssid: String

    @Option(help: "The Wi-Fi country, two letters (GB); empty: left as it is.")
    var country = ""

    @Option(help: "Whether the network hides its name (true or false).")
    var hidden = false

    @Option(name: .customLong("connections"), help: "NetworkManager's directory of connections.")
    var connections = "/etc/NetworkManager/system-connections"

    @Option(name: .customLong("modprobe"), help: "Where the kernel's module options are read.")
    var modprobe = "/etc/modprobe.d"

    func run() throws {
        // A passphrase is at most 64 characters: a little more is read, to say it is too long.
        var input = [UInt8](repeating: 0, count: 256), count = 0
        while count < input.count {
            let got = input.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress! + count, $0.count - count) }
            if got > 0 { count += got } else if got == 0 || errno != EINTR { break }
        }
        var password = String(decoding: input[..<count], as: UTF8.self)
        while password.hasSuffix("\n") || password.hasSuffix("\r") { password.removeLast() }
        do {
            let network = try SavedNetwork(ssid: ssid, password: password, country: country, hidden: hidden)
            try network.save(connections: connections, modprobe: modprobe)
            print("saved Wi-Fi network '\(ssid)'" + (network.country.isEmpty ? "" : " (country \(network.country))"))
        } catch {
            throw ValidationError("wifi-keyfile: \(error)")
        }
    }
}
