import DelayboxNetwork
import DelayboxPlatform
import DelayboxState
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Root's side of the box's Wi-Fi (issue 66; `delaybox wifi-helper`, started by
/// delaybox-wifi.path when the service leaves a request): scans, opens and closes the box's
/// own hotspot, joins the network the owner named — nothing else. The service has no
/// NetworkManager rights of its own: a polkit rule that let it do these let it also read
/// every saved network's password, delete any connection or take the network down.
///
/// The request is read as a stranger's (`HelperMailbox`), each field checked again
/// (`WiFiRequest.parse`). Passwords reach NetworkManager inside root-only keyfiles
/// (`NetworkManagerKeyfile`), never on nmcli's command line.
public struct WiFiHelper: Sendable {
    public static let requestName = "wifi-request"
    public static let answerName = "wifi-answer"

    /// Where the service asks and root answers (its fields are at most a few hundred bytes).
    static func mailbox(_ runtimeDirectory: String) -> HelperMailbox {
        HelperMailbox(directory: runtimeDirectory, requestName: requestName, answerName: answerName)
    }

    /// The service's runtime directory, where requests and answers are (/run/delaybox).
    public let runtimeDirectory: String
    /// NetworkManager's directory of connections; keyfiles there are root's alone.
    public let connectionsDirectory: String
    let nmcli: WiFiKeeper.Runner

    public init(
        runtimeDirectory: String, connectionsDirectory: String = "/etc/NetworkManager/system-connections",
        nmcli: @escaping WiFiKeeper.Runner = { ChildProcess.run("/usr/bin/nmcli", $0) }
    ) {
        self.runtimeDirectory = runtimeDirectory
        self.connectionsDirectory = connectionsDirectory
        self.nmcli = nmcli
    }

    /// Serves the request that waits, answering it beside it: what happened, in words for
    /// the journal; nil when none waits.
    public func serve() -> String? {
        Self.mailbox(runtimeDirectory).serve(
            what: "Wi-Fi", parse: WiFiRequest.parse, describe: Self.describe, perform: perform)
    }

    /// What a request asks, without its password: the journal's line.
    static func describe(_ request: WiFiRequest) -> String {
        switch request {
        case .scan(let device): "scan on \(device)"
        case .openHotspot(let device, let ssid, let channel, _): "hotspot '\(ssid)' on \(device), channel \(channel)"
        case .closeHotspot: "hotspot closed"
        case .join(let device, let ssid, _): "join '\(ssid)' on \(device)"
        case .forgetNetworks: "forget the networks joined"
        }
    }

    /// Carries `request` out; nil when done, else nmcli's words.
    func perform(_ request: WiFiRequest) -> String? {
        switch request {
        case .scan(let device):
            return failure(
                of: nmcli(["-t", "-f", "SSID", "device", "wifi", "list", "ifname", device, "--rescan", "yes"]))
        case .openHotspot(let device, let ssid, let channel, let password):
            let keyfile = NetworkManagerKeyfile.hotspot(
                device: device, ssid: ssid, channel: channel, password: password)
            return install(keyfile) ?? failure(of: nmcli(["--wait", "30", "connection", "up", "uuid", keyfile.uuid]))
        case .closeHotspot:
            let uuid = NetworkManagerKeyfile.hotspot(device: "", ssid: "", channel: 0, password: "").uuid
            return failure(of: nmcli(["connection", "down", "uuid", uuid]))
        case .join(let device, let ssid, let password):
            let seen = nmcli([
                "-t", "-f", "IN-USE,SSID,SIGNAL,SECURITY,CHAN", "device", "wifi", "list", "ifname", device,
            ])
            let security =
                NetworkManagerText.networks(seen.status == 0 ? seen.text : "").first { $0.ssid == ssid }?.security ?? ""
            let keyfile = NetworkManagerKeyfile.network(
                device: device, ssid: ssid, password: password, security: security)
            if let problem = install(keyfile) { return problem }
            guard let problem = failure(of: nmcli(["--wait", "45", "connection", "up", "uuid", keyfile.uuid])) else {
                return nil
            }
            // A network it could not join is not kept (a wrong password would be tried at
            // every boot).
            _ = nmcli(["connection", "delete", "uuid", keyfile.uuid])
            unlink(connectionsDirectory + "/" + keyfile.fileName)
            return problem
        case .forgetNetworks:
            // The box's keyfiles alone (a network the owner added by hand stays): gone from
            // the disk, then from NetworkManager, which takes down one in use.
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: connectionsDirectory)) ?? []).filter {
                $0.hasPrefix(NetworkManagerKeyfile.networkPrefix) && $0.hasSuffix(".nmconnection")
            }
            for file in files.sorted() where unlink(connectionsDirectory + "/" + file) != 0 && errno != ENOENT {
                return "cannot remove \(file): \(String(cString: strerror(errno)))"
            }
            return failure(of: nmcli(["connection", "reload"]))
        }
    }

    /// Writes `keyfile` (root's alone, mode 0600) and has NetworkManager read it.
    private func install(_ keyfile: NetworkManagerKeyfile) -> String? {
        let path = connectionsDirectory + "/" + keyfile.fileName
        do {
            try DurableFile.write(Array(keyfile.text.utf8), to: path, mode: 0o600)
        } catch {
            return "cannot write \(path): \(error)"
        }
        return failure(of: nmcli(["connection", "load", path]))
    }

    private func failure(of outcome: ChildProcess.Outcome) -> String? {
        outcome.status == 0 ? nil : NetworkManagerText.errorText(outcome.text)
    }
}
