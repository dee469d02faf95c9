import DelayboxTestSupport
import Foundation
import Testing

extension VirtualBoardDeployTests {
    /// The page's password install.sh set (`--web-password`).
    static let pagePassword = "correct horse battery"
    /// The club's Wi-Fi password (its router's, on a simulated radio).
    static let clubPassword = "club house 1969"

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
        let router = try login.run("sh /run/wifi-world.sh router club '\(Self.clubPassword)' 2>&1; echo $?")
        try #require(router.hasSuffix("0"), "the club's router on a simulated radio: \(router)")
        // Issue 66: no password on any command line while the box opens its hotspot and joins
        // (sampled from every process's /proc/PID/cmdline; the patterns reach the board by
        // scp and from the box's own file, never on a command line of their own).
        let patterns = directory.appendingPathComponent("club-password")
        try Data((Self.clubPassword + "\n").utf8).write(to: patterns)
        try login.copy(patterns, to: "/run/secret-club")
        _ = try login.run(
            "cat /run/secret-club /var/lib/delaybox/hotspot-password > /run/secret-patterns && rm -f /run/cmdline-hits "
                // Only the sampler in the background (a braced group: `a && b &` would keep
                // a shell holding SSH's channel open until the sampler ends).
                + "&& { setsid sh -c 'while [ -e /run/secret-patterns ]; do for f in $(grep -lF -f /run/secret-patterns "
                + "/proc/[0-9]*/cmdline 2>/dev/null); do tr \"\\0\" \" \" < $f; echo; done >> /run/cmdline-hits; "
                + "sleep 0.2; done' < /dev/null > /dev/null 2>&1 & }")
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
                "--network-password", Self.clubPassword, "--out", directory.path,
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

        // Issue 66: the service's user cannot read a saved network's password, delete a
        // connection or take the network down; root can (the checks could fail).
        _ = try login.run("rm -f /run/secret-patterns; sleep 1")
        let hits = try login.run("cat /run/cmdline-hits 2>/dev/null").split(separator: "\n")
            .filter { !$0.contains("wifi-world.sh") }
        #expect(hits.isEmpty, "a password on a command line: \(hits.prefix(3))")
        let psk = "nmcli -s -g 802-11-wireless-security.psk connection show club"
        #expect(try login.run(psk) == Self.clubPassword, "root reads the password NetworkManager keeps")
        #expect(try !login.run("runuser -u delaybox -- \(psk) 2>&1").contains(Self.clubPassword))
        for change in ["connection delete club", "networking off", "radio wifi off"] {
            let refused = try login.run("runuser -u delaybox -- nmcli \(change) 2>&1; echo status=$?")
            #expect(!refused.hasSuffix("status=0"), "the service's user: nmcli \(change): \(refused)")
        }
        #expect(
            try login.run("nmcli -t -f NAME connection show --active; nmcli networking; nmcli radio wifi")
                .contains("club\n"), "still on the club's network")
        #expect(
            try login.run("stat -c '%a %U' /etc/NetworkManager/system-connections/delaybox-network-*.nmconnection")
                == "600 root")
        lap("the service's user reads no Wi-Fi password and changes nothing but through root's helper")
    }
}
