/// The network a peer's address belongs to, as the page's limits count peers: an IPv4
/// address is its own (/32); an IPv6 address its /64 — a LAN host takes as many addresses
/// of its /64 as it likes (privacy addresses, link-local ones), so a limit keyed on one
/// address is keyed on nothing. An IPv4 address mapped into IPv6 (`::ffff:1.2.3.4`, how a
/// dual-stack socket sees an IPv4 peer) counts as the IPv4 one. A link-local peer
/// (`fe80::/10`, what `NAME.local` gives a phone on the LAN) is counted by its address: every
/// neighbour's is in `fe80::/64`, and one neighbour's wrong passwords must not lock all the
/// others out (issue 66); and so is a peer on the box's own link (`onLink`: its /64 is one
/// of the box's), where a /64 is a LAN of many homes' phones, not one home.
public enum ClientNetwork {
    /// `address` (as inet_ntop writes it) as its network: `192.168.1.23`,
    /// `2001:db8:1:2::/64`; what is not an address is its own network. `onLink`: the peer
    /// is on the box's own link (the server knows), and counts by its address.
    public static func of(_ address: String, onLink: Bool = false) -> String {
        guard address.contains(":") else { return address }
        let bare = address.split(separator: "%", maxSplits: 1).first.map(String.init) ?? address
        guard let groups = hextets(bare) else { return address }
        if groups[0..<5].allSatisfy({ $0 == 0 }), groups[5] == 0xFFFF {
            return [groups[6] >> 8, groups[6] & 0xFF, groups[7] >> 8, groups[7] & 0xFF].map(String.init)
                .joined(separator: ".")
        }
        if groups[0] & 0xFFC0 == 0xFE80 || onLink {
            return groups.map { String($0, radix: 16) }.joined(separator: ":")
        }
        return groups[0..<4].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// The eight 16-bit groups of an IPv6 address's text (`::` expanded, a trailing
    /// dotted IPv4 part as two groups); nil when it is not one.
    static func hextets(_ text: String) -> [UInt16]? {
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            var result: [UInt16] = []
            for piece in part.split(separator: ":", omittingEmptySubsequences: false) {
                if piece.contains(".") {
                    let bytes = piece.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
                    guard bytes.count == 4, piece.split(separator: ".").count == 4 else { return nil }
                    result += [UInt16(bytes[0]) << 8 | UInt16(bytes[1]), UInt16(bytes[2]) << 8 | UInt16(bytes[3])]
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                    result.append(value)
                }
            }
            return result
        }
        guard let head = groups(halves[0]), let tail = halves.count == 2 ? groups(halves[1]) : [] else { return nil }
        if halves.count == 2 {
            guard head.count + tail.count < 8 else { return nil }
            return head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        return head.count == 8 ? head : nil
    }
}
