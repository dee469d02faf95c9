import DelayboxConfig
import DelayboxNetwork
import DelayboxPlatform
import DelayboxSimulation
import DelayboxState
import DelayboxTestSupport
import DelayboxUnits
import Synchronization
import Testing

@testable import DelayboxWiFi

/// Issue 60: the Wi-Fi's keeper against a NetworkManager that answers as nmcli does (the
/// real one on the x86 virtual board: VirtualBoardDeployTests), in virtual time.
@Suite(.timeLimit(.minutes(10))) struct WiFiKeeperTests {
    /// nmcli's answers by the arguments' first words, and root's helper's to the keeper's
    /// requests; every call and request kept.
    final class FakeNetworkManager: Sendable {
        struct Board: Sendable {
            var active = "lo:loopback:lo:activated\n"
            var list = " :club:81:WPA2:6\n :cafe:40::1\n"
            var joinFailure: String?
            var calls: [[String]] = []
            var requests: [WiFiRequest] = []
            var running = true
        }
        let board = Mutex(Board())
        static let hotspot = "delaybox-hotspot:802-11-wireless:wlan0:activated\n"

        func run(_ arguments: [String]) -> ChildProcess.Outcome {
            board.withLock { board in
                board.calls.append(arguments)
                func says(_ text: String) -> ChildProcess.Outcome { .init(status: 0, output: Array(text.utf8)) }
                guard board.running else {
                    return .init(status: 8, output: Array("Error: NetworkManager is not running.\n".utf8))
                }
                switch arguments.dropFirst(3).first {
                case "device" where arguments.count == 4:
                    return says("eth0:ethernet:unmanaged\nwlan0:wifi:disconnected\n")
                case "connection": return says(board.active)
                case "device": return says(board.list)
                default: return .init(status: 2, output: Array("Error: not a question.\n".utf8))
                }
            }
        }

        /// The hotspot comes up and goes down as root's helper would have NetworkManager do.
        func help(_ request: WiFiRequest) -> String? {
            board.withLock { board in
                board.requests.append(request)
                switch request {
                case .openHotspot: board.active += Self.hotspot
                case .closeHotspot: board.active = board.active.replacingOccurrences(of: Self.hotspot, with: "")
                case .join: return board.joinFailure
                case .forgetNetworks: board.active = "lo:loopback:lo:activated\n"
                case .scan: break
                }
                return nil
            }
        }
        var calls: [[String]] { board.withLock { $0.calls } }
        var requests: [WiFiRequest] { board.withLock { $0.requests } }
        func clearRequests() { board.withLock { $0.requests.removeAll() } }
    }

    let clock = ManualClock()
    let nm = FakeNetworkManager()
    let passwordFile: HotspotPasswordFile

    init() throws {
        passwordFile = HotspotPasswordFile(
            path: try ExternalTool.temporaryDirectory("wifi-keeper").appendingPathComponent("hotspot-password").path)
    }

    func keeper(after: TimeAmount? = .minutes(3)) -> WiFiKeeper {
        let nm = nm
        return WiFiKeeper(
            settings: WiFiSettings(hotspotAfter: after),
            identity: HotspotIdentity(boxName: "bar", password: "letmein99"), passwordFile: passwordFile,
            clock: clock, nmcli: { nm.run($0) }, helper: { request, _ in nm.help(request) })
    }

    func tick(_ keeper: WiFiKeeper, at seconds: Int64) {
        clock.set(.zero + .seconds(seconds))
        keeper.tick(now: clock.now())
    }

    @Test func aLostBoxOpensItsHotspotAndJoinsTheNetworkAPhoneChose() {
        let keeper = keeper()
        tick(keeper, at: 0)
        #expect(keeper.state().network == nil && keeper.state().networks.map(\.ssid) == ["club", "cafe"])
        tick(keeper, at: 179)
        #expect(!keeper.state().hotspotOpen && keeper.takeEvents().isEmpty)
        #expect(keeper.nextLook == WiFiKeeper.intervals.lost)
        tick(keeper, at: 180)
        #expect(keeper.state().hotspotOpen)
        #expect(keeper.takeEvents() == [.hotspotOpened(reason: "no network for 3 min")])
        #expect(
            nm.requests == [
                .scan(device: "wlan0"),
                .openHotspot(device: "wlan0", ssid: "Delaybox-bar", channel: 11, password: "letmein99"),
            ])
        nm.clearRequests()
        #expect(keeper.join(ssid: "club", password: "two words") == nil)
        #expect(keeper.join(ssid: "cafe", password: "") != nil, "one join at a time")
        tick(keeper, at: 200)
        #expect(
            nm.requests == [
                .closeHotspot, .scan(device: "wlan0"), .join(device: "wlan0", ssid: "club", password: "two words"),
            ], "the hotspot closes first")
        // Issue 66: nmcli is only asked how things are, never given a password.
        #expect(!nm.calls.contains { $0.contains("two words") || $0.contains("letmein99") }, "\(nm.calls)")
        #expect(nm.calls.allSatisfy { $0.starts(with: ["-t", "-f"]) }, "\(nm.calls)")
        #expect(keeper.state().network == "club" && keeper.state().lastJoin == "joined 'club'")
        #expect(keeper.takeEvents() == [.hotspotClosed(reason: "joining 'club'"), .joined("club")])
        // On it: no hotspot, however long.
        nm.board.withLock { $0.active = "lo:loopback:lo:activated\nclub:802-11-wireless:wlan0:activated\n" }
        nm.clearRequests()
        for second in stride(from: Int64(205), through: 3_600, by: 5) { tick(keeper, at: second) }
        #expect(nm.requests.isEmpty && keeper.takeEvents().isEmpty)
        #expect(keeper.nextLook == WiFiKeeper.intervals.connected, "on a network: looked at less often")
        #expect(keeper.openHotspot()?.contains("the box is on 'club'") == true)
    }

    /// The start after `factory reset --forget-wifi`: root's helper forgets the box's
    /// networks, and the hotspot opens at once (after a scan: a radio serving a hotspot
    /// cannot) for a phone to give it one again.
    @Test func forgottenNetworksOpenTheHotspotAtOnce() {
        let keeper = keeper()
        nm.board.withLock { $0.active = "lo:loopback:lo:activated\nclub:802-11-wireless:wlan0:activated\n" }
        tick(keeper, at: 0)
        #expect(keeper.state().network == "club")
        nm.clearRequests()
        keeper.forgetNetworks()
        tick(keeper, at: 1)
        #expect(
            nm.requests == [
                .forgetNetworks, .scan(device: "wlan0"),
                .openHotspot(device: "wlan0", ssid: "Delaybox-bar", channel: 11, password: "letmein99"),
            ], "\(nm.requests)")
        #expect(keeper.state().hotspotOpen && keeper.state().network == nil)
        #expect(
            keeper.takeEvents() == [.hotspotOpened(reason: "its networks were forgotten (factory reset)")])
    }

    /// Issue 66: the page's owner changes the hotspot's password: kept in the file, and an
    /// open hotspot opened again with it (a phone on the old one is let go).
    @Test func aNewHotspotPasswordIsKeptAndAnOpenHotspotTakesIt() throws {
        let keeper = keeper(after: nil)
        tick(keeper, at: 0)
        #expect(keeper.openHotspot() == nil)
        tick(keeper, at: 1)
        #expect(keeper.state().hotspotOpen)
        nm.clearRequests()
        #expect(keeper.changeHotspotPassword("new-lounge-42") == nil)
        tick(keeper, at: 2)
        #expect(passwordFile.read() == "new-lounge-42")
        #expect(keeper.state().hotspot.password == "new-lounge-42" && keeper.state().hotspotOpen)
        #expect(
            nm.requests.last
                == .openHotspot(device: "wlan0", ssid: "Delaybox-bar", channel: 11, password: "new-lounge-42"),
            "\(nm.requests)")
        // A box whose label's password is in its config keeps that one.
        let labelled = WiFiKeeper(
            settings: WiFiSettings(hotspotPassword: Secret("label-pass-1")),
            identity: HotspotIdentity(boxName: "bar", password: "label-pass-1"), passwordFile: nil, clock: clock,
            nmcli: { _ in ChildProcess.Outcome(status: nil, output: []) })
        #expect(labelled.changeHotspotPassword("other-pass-2")?.contains("wifi.hotspot_password") == true)
    }

    @Test func aNetworkItCannotJoinOpensTheHotspotAgain() {
        let keeper = keeper(after: nil)
        tick(keeper, at: 0)
        #expect(keeper.openHotspot() == nil)
        tick(keeper, at: 1)
        #expect(keeper.takeEvents() == [.hotspotOpened(reason: "asked at the box")])
        nm.board.withLock { $0.joinFailure = "Connection activation failed: Secrets were required." }
        _ = keeper.join(ssid: "club", password: "wrong one")
        tick(keeper, at: 10)
        #expect(
            keeper.state().lastJoin == "could not join 'club': Connection activation failed: Secrets were required.")
        tick(keeper, at: 11)
        #expect(
            keeper.takeEvents() == [
                .hotspotClosed(reason: "joining 'club'"),
                .joinFailed("club", reason: "Connection activation failed: Secrets were required."),
                .hotspotOpened(reason: "asked at the box"),
            ])
    }

    /// A box restarted while its hotspot was open takes it as its own: no second opening
    /// (the phone on it would drop), and it closes when a network works.
    @Test func aHotspotOpenBeforeARestartIsTheBoxs() {
        nm.board.withLock {
            $0.active = "delaybox-hotspot:802-11-wireless:wlan0:activated\n"
            $0.list = "*:Delaybox-bar:0:WPA2:1\n :club:90:WPA2:6\n"
        }
        let keeper = keeper(after: .seconds(10))
        tick(keeper, at: 0)
        #expect(keeper.state().networks.map(\.ssid) == ["club"], "NetworkManager's last scan, less its own hotspot")
        // The radio serving the hotspot does not scan: the last scan's networks age out.
        nm.board.withLock { $0.list = "*:Delaybox-bar:0:WPA2:1\n" }
        tick(keeper, at: 60)
        #expect(keeper.state().networks.map(\.ssid) == ["club"], "the list before is kept")
        #expect(keeper.state().hotspotOpen && keeper.state().hotspotReason == "open before the box restarted")
        #expect(nm.requests.isEmpty, "not opened again: \(nm.requests)")
        nm.board.withLock { $0.active += "Wired connection 1:802-3-ethernet:eth0:activated\n" }
        tick(keeper, at: 65)
        #expect(nm.requests == [.closeHotspot] && !keeper.state().hotspotOpen)
    }

    /// NetworkManager takes the hotspot down (its radio failed): the box says it is closed, and
    /// opens it again a wait later.
    @Test func aHotspotNetworkManagerTookDownIsClosed() {
        let keeper = keeper(after: .seconds(10))
        tick(keeper, at: 0)
        tick(keeper, at: 10)
        #expect(keeper.takeEvents() == [.hotspotOpened(reason: "no network for 10 s")])
        nm.board.withLock { $0.active = "lo:loopback:lo:activated\n" }
        tick(keeper, at: 15)
        #expect(!keeper.state().hotspotOpen)
        #expect(keeper.takeEvents() == [.hotspotClosed(reason: "NetworkManager took it down")])
        tick(keeper, at: 24)
        #expect(keeper.takeEvents().isEmpty)
        tick(keeper, at: 25)
        #expect(keeper.takeEvents() == [.hotspotOpened(reason: "no network for 10 s")])
    }

    @Test func withoutNetworkManagerItSaysSoAndDoesNothing() {
        nm.board.withLock { $0.running = false }
        let keeper = keeper(after: .seconds(10))
        tick(keeper, at: 0)
        tick(keeper, at: 60)
        #expect(keeper.state().problem == "NetworkManager does not answer: NetworkManager is not running.")
        #expect(keeper.openHotspot() == keeper.state().problem)
        #expect(keeper.join(ssid: "club", password: "") != nil)
        #expect(nm.calls.allSatisfy { $0.last == "device" }, "only asked how it is: \(nm.calls)")
        #expect(keeper.nextLook == WiFiKeeper.intervals.lost, "not running yet: it may start at any moment")
        // Not installed at all (nmcli cannot be spawned): said once, looked for rarely.
        let bare = WiFiKeeper(
            settings: WiFiSettings(), identity: HotspotIdentity(boxName: "bar", password: "letmein99"),
            passwordFile: nil, clock: clock, nmcli: { _ in ChildProcess.Outcome(status: nil, output: []) })
        bare.tick(now: clock.now())
        #expect(bare.state().problem?.hasPrefix("no NetworkManager here") == true)
        #expect(bare.nextLook == WiFiKeeper.intervals.absent, "a board without it is asked rarely")
    }
}
