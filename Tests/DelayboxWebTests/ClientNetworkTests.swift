import DelayboxWeb
import Testing

/// Peers counted by network: IPv4 by address, IPv6 by /64 (issue 56).
@Suite(.timeLimit(.minutes(10))) struct ClientNetworkTests {
    @Test func ipv6AddressesOfOneSlash64AreOneNetwork() {
        #expect(ClientNetwork.of("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(ClientNetwork.of("2001:db8:1:2:a:b:c:d") == "2001:db8:1:2::/64")
        #expect(ClientNetwork.of("2001:db8:1:3::1") == "2001:db8:1:3::/64")
        // Issue 66: every neighbour's link-local address is in fe80::/64: each counts alone.
        #expect(ClientNetwork.of("fe80::1c2d:3e4f:5a6b:7c8d%eth0") == "fe80:0:0:0:1c2d:3e4f:5a6b:7c8d")
        #expect(ClientNetwork.of("fe80::1") != ClientNetwork.of("fe80::2"))
        #expect(ClientNetwork.of("febf::1") != ClientNetwork.of("febf::2"), "all of fe80::/10")
        // On the box's own link a /64 is a LAN of many homes: each peer counts alone there.
        #expect(ClientNetwork.of("2001:db8:1:2::1", onLink: true) != ClientNetwork.of("2001:db8:1:2::2", onLink: true))
        #expect(ClientNetwork.of("::ffff:192.168.1.23", onLink: true) == "192.168.1.23")
        #expect(ClientNetwork.of("::1") == "0:0:0:0::/64")
        #expect(ClientNetwork.of("fd00::") == "fd00:0:0:0::/64")
        #expect(ClientNetwork.of("64:ff9b::192.0.2.1") == "64:ff9b:0:0::/64")
    }

    @Test func ipv4IsItsOwnNetworkMappedOrNot() {
        #expect(ClientNetwork.of("192.168.1.23") == "192.168.1.23")
        #expect(ClientNetwork.of("::ffff:192.168.1.23") == "192.168.1.23")
        #expect(ClientNetwork.of("::ffff:c0a8:117") == "192.168.1.23")
        #expect(ClientNetwork.of("192.168.1.24") != ClientNetwork.of("192.168.1.23"))
    }

    @Test func whatIsNotAnAddressIsItsOwn() {
        for text in ["unknown", "1:2:3", "1::2::3", "12345::1", "1:2:3:4:5:6:7:8:9", ":::", "::ffff:1.2.3", "g::1"] {
            #expect(ClientNetwork.of(text) == text, "\(text)")
        }
    }
}
