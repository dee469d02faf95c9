import DelayboxNetwork
import Testing

/// Issue 60: nmcli's terse words read as values; a neighbour's network name checked.
@Suite(.timeLimit(.minutes(10))) struct NetworkManagerTextTests {
    @Test func escapedColonsStayInTheirField() {
        #expect(NetworkManagerText.fields("a\\:b:c\\\\:") == ["a:b", "c\\", ""])
    }

    @Test func networksAreListedOnceStrongestFirstStrangersCheckedFirst() {
        let output = """
             :club:54:WPA2:1
            *:Home\\: 2.4:70:WPA1 WPA2:6
             :club:81:WPA2:1
             ::90:WPA2:11
             :cafe:40::11
             :evil\u{07}:99::1
             :loud:101:WPA2:1
             :far:50:WPA2:999
             :-o:50::1
            Warning\\: versions do not match
            """
        let networks = NetworkManagerText.networks(output)
        #expect(networks.map(\.ssid) == ["club", "Home: 2.4", "cafe"])
        #expect(networks[0].signal == 81 && networks[1].inUse && networks[2].security == "")
        #expect(networks.map(\.channel) == [1, 6, 11])
    }

    /// Of 1, 6 and 11, the channel with the fewest networks near it (12 and 13 are not
    /// allowed everywhere: a hotspot there never came up on the virtual board).
    @Test func theHotspotTakesTheQuietestOfTheChannelsAllowedEverywhere() {
        func on(_ channels: [Int]) -> [WiFiNetwork] {
            channels.map { WiFiNetwork(ssid: "n\($0)", signal: 50, security: "", channel: $0) }
        }
        #expect(HotspotPolicy.channel(among: []) == 6)
        #expect(HotspotPolicy.channel(among: on([6, 7, 1, 2])) == 11)
        #expect(HotspotPolicy.channel(among: on([6, 11, 13])) == 1)
        #expect(HotspotPolicy.channel(among: on([1, 11])) == 6, "5 channels apart do not overlap")
        #expect(HotspotPolicy.channel(among: on([36, 40])) == 6, "5 GHz networks are far from these")
    }

    @Test func theBoxIsOnANetworkOnlyWhenAConnectionOtherThanItsOwnWorks() {
        let active = NetworkManagerText.activeConnections(
            "lo:loopback:lo:activated\ndelaybox-hotspot:802-11-wireless:wlan0:activated\n")
        #expect(NetworkManagerText.workingConnection(active, hotspot: "delaybox-hotspot") == nil)
        let home = NetworkManagerText.activeConnections(
            "lo:loopback:lo:activated\nHome:802-11-wireless:wlan0:activating\nWired connection 1:802-3-ethernet:eth0:activated"
        )
        #expect(NetworkManagerText.workingConnection(home, hotspot: "delaybox-hotspot")?.name == "Wired connection 1")
        #expect(
            NetworkManagerText.wifiDevice(
                "eth0:ethernet:unmanaged\np2p-dev-wlan0:wifi-p2p:disconnected\nwlan0:wifi:disconnected")?
                .device == "wlan0")
        #expect(NetworkManagerText.wifiDevice("eth0:ethernet:connected") == nil)
        #expect(
            NetworkManagerText.errorText("Error: Connection activation failed: Secrets were required.\n")
                == "Connection activation failed: Secrets were required.")
    }

    @Test func credentialsAreCheckedBeforeNetworkManagerSeesThem() {
        #expect(WiFiCredentials.networkNameProblem("Club Wi-Fi") == nil)
        #expect(WiFiCredentials.networkNameProblem(String(repeating: "x", count: 33)) != nil)
        #expect(WiFiCredentials.networkNameProblem("") != nil)
        #expect(WiFiCredentials.networkNameProblem("--help") != nil)
        #expect(WiFiCredentials.networkNameProblem("a\nb") != nil)
        #expect(WiFiCredentials.passwordProblem("") == nil, "an open network")
        #expect(WiFiCredentials.passwordProblem("correct horse") == nil)
        #expect(WiFiCredentials.passwordProblem("short") != nil)
        #expect(WiFiCredentials.passwordProblem(String(repeating: "a", count: 64)) == nil, "the key in hex")
        #expect(WiFiCredentials.passwordProblem(String(repeating: "g", count: 64)) != nil)
        #expect(WiFiCredentials.passwordProblem("pässwörd123") != nil)
    }

    /// The hotspot's name is the box's; its password is said as a listener writes it down
    /// (the password itself is the box's own: HotspotPasswordFileTests).
    @Test func theHotspotIsNamedForTheBoxAndItsPasswordSpokenInGroups() {
        #expect(HotspotIdentity(boxName: "kitchen", password: "letmein99").ssid == "Delaybox-kitchen")
        #expect(HotspotIdentity(boxName: String(repeating: "long", count: 10), password: "x").ssid.utf8.count == 32)
        #expect(HotspotIdentity(boxName: "bar", password: "letmein99").spokenPassword == "l e t m e i n 9 9")
        let digits = HotspotIdentity(boxName: "bar", password: "1234567890123456")
        #expect(digits.spokenPassword == "1 2 3 4, 5 6 7 8, 9 0 1 2, 3 4 5 6")
    }
}
