import DelayboxNetwork
import DelayboxUnits

/// Where the box is, said on its output (issue 60): at a long press or a remote's key
/// (`say_address`), and at a start while the page waits for its first password. A box has
/// no screen and many phones cannot open `NAME.local`, so its address is said by number,
/// as a phone's address bar takes it. A hand on the box is also what opens the page's
/// window for a first password (issue 56): a neighbour on the LAN cannot press the button.
public struct AddressAnnouncement: Equatable, Sendable {
    /// The words said.
    public var spoken: String
    /// The log's line.
    public var logLine: String

    /// What the box says of itself: `name` (its hostname), the page's link by number (nil:
    /// no address a phone could reach), whether the board has a page at all, and whether
    /// the page now waits for its first password (for `setupWindow`: the page's window for
    /// one, said in whole minutes); `hotspot`: the box's own hotspot, when it
    /// is open (a phone joins it first); `reset`: the box was just reset to its factory
    /// settings.
    public init(
        name: String, link: String?, hasPage: Bool, setupOpen: Bool, setupWindow: TimeAmount,
        hotspot: HotspotIdentity? = nil, reset: Bool = false
    ) {
        var words = ["This is Delaybox \(name)."]
        var log = "said where the box is: \(name)"
        if reset {
            words.append("It is reset to its factory settings.")
            log += ", reset to its factory settings"
        }
        if let hotspot {
            words.append(
                "It has no network. Join its Wi-Fi, \(hotspot.ssid), password \(hotspot.spokenPassword).")
            log += ", on its hotspot \(hotspot.ssid)"
        }
        if !hasPage {
            words.append("It has no web page.")
        } else if let link {
            words.append("Its page is at \(Self.speakable(link)).")
            log += ", \(link)"
            if setupOpen {
                let minutes = setupWindow.wholeSeconds / 60
                words.append("Choose its password there within \(minutes) minutes.")
                log += "; the page's first password may be chosen for \(minutes) min"
            }
        } else {
            words.append("It has no network address yet.")
            log += ", no network address"
        }
        spoken = words.joined(separator: " ")
        logLine = log
    }

    /// A link as a listener types it: `http://192.168.1.23/` → "192 dot 168 dot 1 dot 23",
    /// a port after "port". (An IPv6 address is said as it is written: the box says one only
    /// on a network without IPv4.)
    public static func speakable(_ link: String) -> String {
        var rest = Substring(link)
        if rest.hasPrefix("http://") { rest = rest.dropFirst("http://".count) }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.hasPrefix("[") else { return String(rest) }
        let parts = rest.split(separator: ":", maxSplits: 1)
        let host = parts.first.map { $0.split(separator: ".").joined(separator: " dot ") } ?? ""
        return parts.count == 2 ? "\(host) port \(parts[1])" : host
    }
}
