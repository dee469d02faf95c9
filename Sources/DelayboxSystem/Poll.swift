import DelayboxUnits

#if canImport(Glibc)
    import Glibc
#endif

/// `poll(2)` with its result checked: a wait that a signal interrupted counts as one that
/// timed out (its callers wait again); any other failure (too many descriptors, no
/// memory) is thrown, so a loop around it cannot spin on a wait that never waits.
public enum Poll {
    /// What came on one descriptor.
    public struct Events: OptionSet, Sendable {
        public let rawValue: Int16
        public init(rawValue: Int16) { self.rawValue = rawValue }
        init(_ revents: Int16) { rawValue = revents }

        public static let readable = Events(rawValue: Int16(POLLIN))
        public static let writable = Events(rawValue: Int16(POLLOUT))
        /// The other side hung up (a pseudo-terminal nobody has open).
        public static let hungUp = Events(rawValue: Int16(POLLHUP))
        /// An error on the device.
        public static let error = Events(rawValue: Int16(POLLERR))
        /// The descriptor is not open.
        public static let notOpen = Events(rawValue: Int16(POLLNVAL))
    }

    /// How long a wait may last: until something comes, or at most an amount — to the
    /// next millisecond (poll's unit: the wait never ends before it), none when negative.
    public enum Wait: Sendable, Equatable {
        case forever
        case atMost(TimeAmount)

        /// Not at all: what is ready now.
        public static let none = Wait.atMost(.zero)

        /// poll(2)'s timeout: milliseconds, -1 for none.
        var milliseconds: Int32 {
            switch self {
            case .forever: -1
            case .atMost(let amount): Int32(clamping: max(.zero, amount).millisecondsRoundedUp)
            }
        }
    }

    /// Waits `wait` for the events each of `descriptors` asks for; returns how many have
    /// some (their `revents`), 0 on timeout or a signal.
    public static func wait(_ descriptors: inout [pollfd], _ wait: Wait) throws(Errno) -> Int {
        let ready = poll(&descriptors, nfds_t(descriptors.count), wait.milliseconds)
        if ready >= 0 { return Int(ready) }
        let failure = Errno.current
        if failure == .interrupted { return 0 }
        throw failure
    }
}
