import DelayboxConsole
import Testing

/// Issue 60: `wifi` on the console and the page — a network's name one word or quoted, the
/// password the rest of the line as typed — and which doors may ask.
@Suite(.timeLimit(.minutes(10))) struct WiFiCommandTests {
    func parse(_ line: String) -> Result<ConsoleRequest, ConsoleError>? { ConsoleLanguage.parse(line) }
    func action(_ line: String) -> ConsoleRequest.Action? { try? parse(line)?.get().action }
    func error(_ line: String) -> String? {
        guard case .failure(let error)? = parse(line) else { return nil }
        return error.description
    }

    @Test func aNetworkIsJoinedByNameWithThePasswordAsTyped() {
        #expect(action("wifi") == .wifi)
        #expect(action("wifi join club s3cret pass") == .wifiJoin(ssid: "club", password: "s3cret pass"))
        #expect(action("WIFI JOIN cafe") == .wifiJoin(ssid: "cafe", password: ""))
        #expect(
            action(#"wifi join "Club \"West\" 5G"  two  spaces --json"#)
                == .wifiJoin(ssid: #"Club "West" 5G"#, password: " two  spaces --json"))
        #expect(action("wifi join \"a b\"\r\n") == .wifiJoin(ssid: "a b", password: ""))
        #expect(action("wifi hotspot on") == .wifiHotspot(open: true))
        #expect(action("wifi hotspot OFF") == .wifiHotspot(open: false))
    }

    @Test func whatNetworkManagerMustNotSeeIsRefusedWithTheReason() {
        let usage = "usage: wifi join NETWORK [PASSWORD] (a name with spaces in \"quotes\")"
        #expect(error("wifi join") == usage)
        #expect(error("wifi join \"unclosed") == usage)
        #expect(error("wifi join \"a\"b pass") == usage)
        #expect(error("wifi join --help") == "a network's name given here may not begin with '-'")
        #expect(error("wifi join club short")?.contains("8-63 printable ASCII") == true)
        #expect(error("wifi join \"\(String(repeating: "x", count: 33))\"")?.contains("1-32 bytes") == true)
        #expect(
            error("wifi hotspot")
                == "usage: wifi | wifi join NETWORK [PASSWORD] | wifi hotspot on|off | wifi hotspot password NEW")
        #expect(error("wifijoin x") != nil)
    }

    @Test func thePageMayChooseTheNetworkMQTTMayNot() throws {
        for line in ["wifi", "wifi join club s3cret pass", "wifi hotspot on"] {
            let request = try #require(try parse(line)?.get())
            #expect(NetworkDoorPolicy.refusal(request, door: .page) == nil, "\(line)")
            #expect(NetworkDoorPolicy.refusal(request, door: .mqtt)?.contains("wifi there") == true, "\(line)")
        }
        let key = try #require(try parse("config set wifi.hotspot_password letmein99")?.get())
        #expect(NetworkDoorPolicy.refusal(key, door: .page)?.contains("is the owner's") == true)
    }
}
