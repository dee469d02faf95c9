import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP port on 127.0.0.1 for a test's server, chosen below the kernel's ephemeral range
/// (`net.ipv4.ip_local_port_range`, 32768–60999 by default). A port from inside it — what
/// binding port 0 gives — can be taken by any outgoing connection between the check and
/// the server's own bind, and a client that keeps retrying a port nobody listens on can
/// even connect to itself there, so the server never gets it.
public enum LoopbackPort {
    /// The ports handed out: above the well-known and most registered services' numbers.
    static let lowest = 20_000

    /// A port nobody listens on now, outside the ephemeral range: picked at random (tests
    /// running side by side rarely pick the same one) and checked by binding it.
    public static func unused() throws -> Int {
        let highest = ephemeralRangeStart() - 1
        for _ in 0..<100 {
            let port = Int.random(in: lowest...max(lowest, highest))
            if isFree(port) { return port }
        }
        throw ExternalTool.Failed(description: "no free loopback port in \(lowest)–\(highest)")
    }

    /// The first port of the kernel's ephemeral range.
    private static func ephemeralRangeStart() -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
    }

    /// Whether nobody has `port` bound on 127.0.0.1 (a test's server is listening once not).
    public static func isFree(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
