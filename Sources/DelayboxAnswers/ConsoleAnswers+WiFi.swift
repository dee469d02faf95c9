import DelayboxConsole

/// `wifi`, `wifi join`, `wifi hotspot on|off`: the box's Wi-Fi, looked after by the doors'
/// `WiFiKeeper` (`BoxFacts.wifi`) (issue 60). Answered at once: joining takes the keeper's thread tens of
/// seconds, and the box says how it went aloud (a phone on the hotspot loses the page).
extension ConsoleAnswers {
    private var keeperMissing: ConsoleReply {
        .refusal(
            .unavailable, "this board leaves the Wi-Fi alone: no wifi: section in its config (docs/board-config.md)")
    }

    /// - Parameter door: the network door that asked (its password is not shown there).
    func wifiAnswer(door: NetworkDoorPolicy.Door?) -> ConsoleReply {
        guard let keeper = facts.wifi else { return keeperMissing }
        let after =
            config.wifi?.hotspotAfter.map {
                "closed; opens after \($0.wholeSeconds >= 120 ? "\($0.wholeSeconds / 60) min" : "\($0.wholeSeconds) s") without a network"
            } ?? "closed; opens only when asked (wifi.hotspot_after: never)"
        let answer = WiFiAnswer(keeper.state(), after: after, showPassword: door == nil)
        return .answer(answer, text: answer.text)
    }

    func joinWiFi(_ ssid: String, password: String) -> ConsoleReply {
        guard let keeper = facts.wifi else { return keeperMissing }
        if let refusal = keeper.join(ssid: ssid, password: password) { return .refusal(.refused, refusal) }
        return .answer(
            ResultAnswer(
                wifi: "joining '\(ssid)': the hotspot closes; the box says its new address when it is on it, "
                    + "or opens its hotspot again"))
    }

    func changeHotspotPassword(_ password: String) -> ConsoleReply {
        guard let keeper = facts.wifi else { return keeperMissing }
        if let refusal = keeper.changeHotspotPassword(password) { return .refusal(.refused, refusal) }
        return .answer(
            ResultAnswer(wifi: "the hotspot's password is changed; a phone on the hotspot joins again with the new one")
        )
    }

    func wifiHotspot(open: Bool) -> ConsoleReply {
        guard let keeper = facts.wifi else { return keeperMissing }
        guard open else {
            keeper.closeHotspot()
            return .answer(ResultAnswer(wifi: "hotspot closing"))
        }
        if let refusal = keeper.openHotspot() { return .refusal(.refused, refusal) }
        return .answer(ResultAnswer(wifi: "hotspot opening: the box says its name and password"))
    }
}
