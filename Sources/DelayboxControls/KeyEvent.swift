import DelayboxUnits

/// A key of a kernel input device (an IR remote through rc-core, a USB remote, a
/// keyboard), as its evdev event says.
public struct KeyEvent: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        /// Went down (evdev value 1).
        case press
        /// Still held: the kernel's autorepeat (value 2), every REP_PERIOD after REP_DELAY
        /// (rc-core: 125 ms after 500 ms).
        case repeatWhileHeld
        /// Came up (value 0); rc-core sends it when the remote's repeats stop.
        case release
        /// The kernel dropped events (its buffer overflowed: SYN_DROPPED), releases among
        /// them perhaps; the event's code is -1.
        case eventsLost
    }

    /// The kernel's key code (KEY_VOLUMEUP = 115).
    public var code: Int
    public var change: Change
    /// Monotonic time of the event: the kernel's, not when it was read.
    public var time: Instant

    public init(code: Int, _ change: Change, at time: Instant) {
        self.code = code
        self.change = change
        self.time = time
    }
}
