import DelayboxAnswers
import DelayboxDoors
import DelayboxNetwork
import DelayboxPlatform
import DelayboxWeb

/// Where the box is, said aloud (issue 60): its name and page address at a long press or a
/// remote's key, and what its Wi-Fi did — a hotspot opened (its name and password), a
/// network joined (the new address), one it could not join.
extension Playout {
    /// Says the box's name and its page's address over the programme (and in the log). By
    /// hand (a control on the box), with no page password set, the page's window to choose
    /// one opens for 30 minutes; a start only says that it is open (a restart must not
    /// stretch it: issue 56). By hand on a box with no network, the box opens its hotspot
    /// first and says it once open. `reset`: the start after a factory reset says so first.
    /// Returns what was said.
    @discardableResult
    func sayWhereTheBoxIs(byHand: Bool, reset: Bool = false) -> AddressAnnouncement? {
        let wifi = doors.wifi?.state()
        let page = configuration.config.web, access = page == nil ? nil : inbox.web
        let monotonic = SystemClock.monotonicNow()
        let setupOpen =
            byHand
            ? access?.openSetup(now: monotonic) ?? false : access.map { $0.setupLeft(now: monotonic) > .zero } ?? false
        if byHand, let wifi, wifi.problem == nil, wifi.network == nil, !wifi.hotspotOpen,
            doors.wifi?.openHotspot() == nil
        {
            logger.notice("no network: the box opens its hotspot \(wifi.hotspot.ssid) and says it then")
            return nil
        }
        // The Wi-Fi's address first: the one a phone on the hotspot, or on the network just
        // joined, reaches.
        let addresses = SystemFigures.read().addresses
        let device = wifi?.device.map { $0 + " " }
        let ordered =
            addresses.filter { device.map($0.hasPrefix) ?? false }
            + addresses.filter { !(device.map($0.hasPrefix) ?? false) }
        let link = page.flatMap { PageLinks.link(port: $0.port, addresses: ordered) }
        let said = AddressAnnouncement(
            name: HostName.current(), link: link, hasPage: access != nil, setupOpen: setupOpen,
            setupWindow: WebApp.setupWindow,
            hotspot: wifi?.hotspotOpen == true ? wifi?.hotspot : nil, reset: reset)
        let spoken = desk?.say(said.spoken) ?? false
        logger.notice("\(said.logLine)\(spoken ? "" : " (in the log only: no espeak-ng, or no programme mix)")")
        return said
    }

    /// What the Wi-Fi's keeper did since the last wake-up, said aloud.
    func tellOfTheWiFi() {
        guard let events = doors.wifi?.takeEvents(), !events.isEmpty else { return }
        for event in events {
            switch event {
            case .hotspotOpened, .joined:
                sayWhereTheBoxIs(byHand: false)
            case .joinFailed(let ssid, let reason):
                let words = "Delaybox \(HostName.current()) could not join \(ssid). Its hotspot opens again."
                let spoken = desk?.say(words) ?? false
                logger.notice("said: could not join '\(ssid)' (\(reason))\(spoken ? "" : " (in the log only)")")
            case .hotspotClosed:
                break
            }
        }
    }
}
