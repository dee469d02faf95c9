import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Plays systemd's side of `sd_notify` for a test: a Unix datagram socket whose path goes
/// into the service's `NOTIFY_SOCKET`; records every message with when it arrived.
public final class NotifySocket {
    public let path: String
    private let socket: Int32
    private let started = Date()

    public init(directory: URL) throws {
        path = directory.appendingPathComponent("notify.sock").path
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard socket >= 0, bound == 0 else { throw ExternalTool.Failed(description: "cannot bind \(path)") }
    }

    deinit { close(socket) }

    /// The next message within `timeout` seconds, with its arrival (s since creation).
    public func receive(timeout: Double) -> (message: String, at: Double)? {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = recv(socket, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return (String(decoding: buffer.prefix(count), as: UTF8.self), Date().timeIntervalSince(started))
    }

    /// Every message that arrives in the next `seconds`: what a service said over a period.
    public func messages(for seconds: Double) -> [(message: String, at: Double)] {
        let deadline = Date().addingTimeInterval(seconds)
        var messages: [(message: String, at: Double)] = []
        while deadline.timeIntervalSinceNow > 0, let next = receive(timeout: deadline.timeIntervalSinceNow) {
            messages.append(next)
        }
        return messages
    }

    /// Messages until one contains `text` (included), or nil if `timeout` passes first.
    public func collect(until text: String, timeout: Double) -> [(message: String, at: Double)]? {
        let deadline = Date().addingTimeInterval(timeout)
        var messages: [(message: String, at: Double)] = []
        while let next = receive(timeout: max(0, deadline.timeIntervalSinceNow)) {
            messages.append(next)
            if next.message.contains(text) { return messages }
        }
        return nil
    }
}
