import DelayboxSystem
import DelayboxUnits

#if canImport(Glibc)
    import Glibc
#endif

/// One UDP question sent to an IPv4 multicast group from an ordinary port, and the
/// datagrams that come back to that port for a while (mDNS's legacy unicast query, which
/// responders answer straight to the asker: `VenueHubSearch`). The thin adapter over the
/// socket calls; what the bytes mean is the caller's.
public enum MulticastQuestion {
    /// A datagram heard, and the IPv4 address it came from.
    public struct Reply: Sendable {
        public var bytes: [UInt8]
        public var source: String
    }

    /// Sends `packet` to `group`:`port` (TTL 255, as mDNS asks, on the kernel's choice of
    /// interface for the group) and gathers replies for `listening`; at most `largest` of
    /// them, each at most 9000 bytes (mDNS's largest). Throws when the question cannot be
    /// sent (no network: ENETUNREACH).
    public static func ask(
        _ packet: [UInt8], group: String, port: UInt16, listening: TimeAmount, largest: Int = 64
    ) throws(Errno) -> [Reply] {
        let socket = FileDescriptor(
            adopting: try Errno.retryingInterrupts {
                Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            })
        let fd = socket.rawValue
        var ttl: UInt8 = 255
        _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &ttl, socklen_t(MemoryLayout<UInt8>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, group, &address.sin_addr) == 1 else { throw Errno(EINVAL) }
        _ = try Errno.retryingInterrupts {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, packet, packet.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        let deadline = SystemClock.monotonicNanoseconds() + listening.nanoseconds
        var replies: [Reply] = []
        var buffer = [UInt8](repeating: 0, count: 9_000)
        while replies.count < largest {
            let left = deadline - SystemClock.monotonicNanoseconds()
            guard left > 0 else { break }
            guard
                try socket.wait(for: Int16(POLLIN), .atMost(TimeAmount(nanoseconds: left)))
                    .contains(.readable)
            else { continue }
            var from = sockaddr_in()
            var fromLength = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = withUnsafeMutablePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, &buffer, buffer.count, 0, $0, &fromLength)
                }
            }
            guard count > 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            guard inet_ntop(AF_INET, &from.sin_addr, &text, socklen_t(text.count)) != nil else { continue }
            replies.append(
                Reply(
                    bytes: Array(buffer[0..<count]),
                    source: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return replies
    }
}
