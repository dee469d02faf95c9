import DelayboxPlatform
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Talks to systemd the way `sd_notify(3)` does, without libsystemd: datagrams to the
/// socket in `$NOTIFY_SOCKET` (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `RELOADING=1`,
/// `STOPPING=1`). Outside systemd (no socket) every call does nothing.
public final class SystemdNotifier: @unchecked Sendable {
    private let address: sockaddr_un?
    private let addressLength: socklen_t
    private let socket: Int32
    /// How often the watchdog wants feeding (half of `$WATCHDOG_USEC`), in nanoseconds;
    /// nil when off.
    public let watchdogIntervalNanoseconds: Int64?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let target = environment["NOTIFY_SOCKET"].flatMap { sockaddr_un.unix($0) }
        address = target?.address
        addressLength = target?.length ?? 0
        socket =
            address == nil ? -1 : Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let pidMatches = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        if let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0, pidMatches {
            watchdogIntervalNanoseconds = microseconds * 1_000 / 2
        } else {
            watchdogIntervalNanoseconds = nil
        }
    }

    deinit { if socket >= 0 { close(socket) } }

    public var isActive: Bool { socket >= 0 }

    /// Sends one notification (`"READY=1"`, `"STATUS=playing"`); errors are ignored, as
    /// `sd_notify` callers do: systemd not listening must not stop the audio. Never waits:
    /// the playout thread sends these, and a receiver that does not read (its queue holds
    /// `net.unix.max_dgram_qlen`, 10 datagrams) would otherwise stall the audio within a
    /// second of watchdog pings; a dropped ping is the lesser harm.
    public func notify(_ state: String) {
        guard socket >= 0, var address else { return }
        let bytes = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, addressLength)
            }
        }
    }
}
