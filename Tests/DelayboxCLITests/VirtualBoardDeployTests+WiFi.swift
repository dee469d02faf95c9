import DelayboxTestSupport
import Foundation
import Testing

extension VirtualBoardDeployTests {
    /// The page's password install.sh set (`--web-password`).
    static let pagePassword = "correct horse battery"

    /// Issue 60 on the x86 board's simulated radios (tools/virtual-board/wifi-world.sh): a
    /// box with no network opens its hotspot; a phone joins it and, in chromium through the
    /// phone's radio, chooses the club's network on the page; the box joins it, says its
    /// new address, and opens no hotspot while that network works. NetworkManager, polkit
    /// (the unprivileged service's rule) and hostapd are Debian's, as on a Pi.
    func aLostBoxIsFoundThroughItsHotspot(
        _ login: Login, board: VirtualBoard.Board, relayPort: Int, directory: URL, lap: (String) -> Void
    ) throws {
        let world = Self.root.appendingPathComponent("tools/virtual-board/wifi-world.sh")
        try login.copy(world, to: "/run/wifi-world.sh")
        let router = try login.run("sh /run/wifi-world.sh router club 'club house 1969' 2>&1; echo $?")
        try #require(router.hasSuffix("0"), "the club's router on a simulated radio: \(router)")
        _ = try login.run(
            "printf 'wifi:\\n  hotspot_after: 10 s\\n' >> /etc/delaybox/delaybox.conf && systemctl reload delaybox")
        func wifi() -> [String: Any]? {
            guard let text = try? login.run("delayboxctl --json wifi"), let data = text.data(using: .utf8) else {
                return nil
            }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }
        let reloaded = Date()
        let open = Eventually.value(within: Double(board.allowing(120)), every: 1) { () -> [String: Any]? in
            let state = wifi()
            return state?["hotspot_open"] as? Bool == true ? state : nil
        }
        lap("the box with no network opened its hotspot")
        let log =
            (try? login.run("journalctl -u delaybox --no-pager -o cat | grep -i 'wi-fi\\|hotspot' | tail -5")) ?? ""
        let state = try #require(open, "the hotspot opened within \(board.allowing(120)) s: \(wifi() ?? [:])\n\(log)")
        print("deploy: the hotspot opened \(Int(Date().timeIntervalSince(reloaded))) s after the reload (10 s wait)")
        let ssid = try #require(state["hotspot"] as? String),
            password = try #require(state["hotspot_password"] as? String)
        #expect(ssid == "Delaybox-virtual-board", "\(state)")
        let networks = (state["networks"] as? [[String: Any]] ?? []).compactMap { $0["ssid"] as? String }
        #expect(networks.contains("club"), "seen before it opened: \(networks)")
        #expect(
            try login.run(
                "journalctl -u delaybox --no-pager -o cat | grep -c 'said where the box is: .*on its hotspot'")
                != "0", "the box said its hotspot's name and password")

        let address = try login.run("ip -4 -o addr show dev wlan0 | awk '{print $4}' | cut -d/ -f1")
        let phone = try login.run("sh /run/wifi-world.sh phone '\(ssid)' '\(password)' \(address) 2>&1; echo $?")
        try #require(phone.hasSuffix("0"), "the phone joined the hotspot with the spoken password: \(phone)")
        lap("a phone joined the hotspot")
        let python = Self.root.appendingPathComponent(".build/browser-venv/bin/python")
        let page = try ExternalTool.execute(
            python,
            [
                Self.root.appendingPathComponent("tools/browser/wifi_page.py").path, "--url",
                "http://127.0.0.1:\(relayPort)", "--password", Self.pagePassword, "--network", "club",
                "--network-password", "club house 1969", "--out", directory.path,
            ])
        #expect(page.status == 0 && page.output.contains("joined from the hotspot"), "\(page.output)\(page.errors)")
        let joined = Eventually.value(within: Double(board.allowing(90)), every: 1) { () -> [String: Any]? in
            let state = wifi()
            return state?["network"] as? String == "club" ? state : nil
        }
        lap("chosen on the page through the phone, the box on the club's network")
        #expect(joined != nil, "joined: \(wifi() ?? [:])")
        let said = Eventually.value(within: 30, every: 1) { () -> String? in
            let line = try? login.run(
                "journalctl -u delaybox --no-pager -o cat | grep 'said where the box is: virtual-board, http://192.168.50.' | tail -1"
            )
            return line?.isEmpty == false ? line : nil
        }
        #expect(said != nil, "the box said its address on the club's network")
        // On a network that works, no hotspot: past the 10 s wait and a few looks.
        Thread.sleep(forTimeInterval: 20)
        #expect(
            wifi()?["hotspot_open"] as? Bool == false && wifi()?["network"] as? String == "club", "\(wifi() ?? [:])")
        #expect(
            try login.run("nmcli -t -f NAME connection show --active").contains("delaybox-hotspot") == false,
            "NetworkManager has no hotspot up")
        lap("no hotspot while the club's network works")
    }
}
