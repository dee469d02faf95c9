import DelayboxDoors
import Testing

/// Issue 60: the page by number, for a phone whose browser cannot resolve NAME.local.
@Suite(.timeLimit(.minutes(10))) struct PageLinksTests {
    @Test func theFirstLANAddressIsThePagesNumber() {
        #expect(
            PageLinks.link(port: 80, addresses: ["wlan0 fe80::1%wlan0", "wlan0 192.168.1.23", "eth0 10.0.0.5"])
                == "http://192.168.1.23/")
        #expect(PageLinks.link(port: 8080, addresses: ["eth0 10.0.0.5"]) == "http://10.0.0.5:8080/")
        // No IPv4 the LAN gave: a global IPv6 address, bracketed.
        #expect(
            PageLinks.link(port: 80, addresses: ["eth0 169.254.3.4", "eth0 fe80::2%eth0", "eth0 2001:db8::23"])
                == "http://[2001:db8::23]/")
        // Only link-local (no DHCP yet, no router): nothing a phone could open.
        #expect(PageLinks.link(port: 80, addresses: ["eth0 169.254.3.4", "eth0 fe80::2%eth0"]) == nil)
        #expect(PageLinks.link(port: 80, addresses: []) == nil)
    }
}
