import DelayboxNetwork

extension ConsoleCommand {
    /// `wifi | wifi join NETWORK [PASSWORD] | wifi hotspot on|off | wifi hotspot password NEW`:
    /// the page's owner, on the hotspot or the LAN, chooses the box's network; a broker's
    /// client has no business with its Wi-Fi password.
    static let wifi = ConsoleCommand(
        name: "wifi",
        usage: "wifi | wifi join NETWORK [PASSWORD] | wifi hotspot on|off | wifi hotspot password NEW",
        summary:
            "the box's Wi-Fi: its network, its hotspot (name, password), the networks in reach; join one (a name with spaces in \"quotes\"); the hotspot's own password",
        arguments: ["join", "hotspot"],
        doors: .pageOnly(elsewhere: "the box's Wi-Fi is its page's or its console's: wifi there")
    ) { words in
        if let rest = words.rest(after: ["join"]) { return join(rest) }
        if let password = words.rest(after: ["hotspot", "password"]) {
            // The rest of the line exactly, as a join's password: spaces count (no JSON asked).
            let text = String(password.first == " " ? password.dropFirst() : password)
            if let problem = text.isEmpty
                ? "usage: wifi hotspot password NEW (8-63 characters)" : WiFiCredentials.passwordProblem(text)
            {
                return .failure(ConsoleError(problem))
            }
            return .success(ConsoleRequest(.wifiHotspotPassword(text)))
        }
        let arguments = words.arguments
        switch (arguments.count, words.first) {
        case (0, _): return words.request(.wifi)
        case (2, "hotspot") where ["on", "off"].contains(arguments[1].lowercased()):
            return words.request(.wifiHotspot(open: arguments[1].lowercased() == "on"))
        default: return words.usageError
        }
    }

    /// `wifi join`'s words as typed, before the line is split into words: the network's
    /// name is one word or "in quotes" (`\"` and `\\` inside), the password is the rest of
    /// the line exactly (spaces count; none: an open network).
    private static func join(_ words: Substring) -> Result<ConsoleRequest, ConsoleError> {
        var rest = words.drop { $0 == " " }
        let usage = ConsoleError("usage: wifi join NETWORK [PASSWORD] (a name with spaces in \"quotes\")")
        var ssid = ""
        if rest.first == "\"" {
            rest = rest.dropFirst()
            var closed = false
            while let character = rest.first {
                rest = rest.dropFirst()
                if character == "\"" {
                    closed = true
                    break
                }
                if character == "\\", let next = rest.first {
                    ssid.append(next)
                    rest = rest.dropFirst()
                } else {
                    ssid.append(character)
                }
            }
            guard closed, rest.isEmpty || rest.first == " " else { return .failure(usage) }
        } else {
            ssid = String(rest.prefix { $0 != " " })
            rest = rest.dropFirst(ssid.count)
        }
        guard !ssid.isEmpty else { return .failure(usage) }
        let password = rest.first == " " ? String(rest.dropFirst()) : ""
        if let problem = WiFiCredentials.networkNameProblem(ssid) ?? WiFiCredentials.passwordProblem(password) {
            return .failure(ConsoleError(problem))
        }
        return .success(ConsoleRequest(.wifiJoin(ssid: ssid, password: password)))
    }
}
