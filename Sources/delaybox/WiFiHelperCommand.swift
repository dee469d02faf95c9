import ArgumentParser
import DelayboxWiFi

/// `delaybox wifi-helper`: root's side of the box's Wi-Fi, run by delaybox-wifi.service when
/// the service leaves a request (delaybox-wifi.path): serves it and says what it did, for
/// the journal (docs/web.md, "When the box is lost"; `WiFiHelper`).
struct WiFiHelperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wifi-helper",
        abstract: "Carry out the Wi-Fi change the service asked for (root; run by delaybox-wifi.service).")

    @Option(name: .customLong("runtime-dir"), help: "The service's runtime directory, where it asks.")
    var runtimeDirectory = "/run/delaybox"

    @Option(name: .customLong("connections"), help: "NetworkManager's directory of connections.")
    var connections = "/etc/NetworkManager/system-connections"

    func run() throws {
        let helper = WiFiHelper(runtimeDirectory: runtimeDirectory, connectionsDirectory: connections)
        print(helper.serve() ?? "no Wi-Fi request waits in \(runtimeDirectory)")
    }
}
