import CTermios

#if canImport(Glibc)
    import Glibc
#endif

/// The console's line: a serial device set to raw 8N1 at a baud rate through termios, or
/// on a host the master side of a new pseudo-terminal whose other side a terminal program
/// opens (`picocom /dev/pts/N`). Reads wait with `poll` so a thread can stop.
public final class SerialPort: @unchecked Sendable {
    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    private let fd: Int32
    /// Signalled by `wake()`: a waiting `read` returns at once.
    private let wakeFD = dbx_wake_descriptor()
    /// The last write timed out: until the line takes bytes again, writes drop at once
    /// instead of waiting each time. (One thread writes.)
    private var congested = false
    /// What a terminal program opens: the device itself, or the pseudo-terminal's other side.
    public let path: String

    /// Opens `device` raw 8N1 at `baud`.
    /// The corresponding C functions are `open`, `cfmakeraw`, `cfsetspeed` and `tcsetattr`.
    public init(device: String, baud: Int) throws {
        guard let speed = Self.speeds[baud] else {
            throw Failed(description: "\(baud) baud is not a rate the serial driver knows")
        }
        let fd = open(device, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Failed(description: "cannot open \(device): \(String(cString: strerror(errno)))" + Self.hint(errno))
        }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            close(fd)
            throw Failed(description: "\(device) is not a terminal device")
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        cfsetspeed(&settings, speed)
        tcsetattr(fd, TCSANOW, &settings)
        Self.makeNonBlocking(fd)
        self.fd = fd
        path = device
    }

    /// A new pseudo-terminal; `path` is the side a terminal program opens.
    /// The corresponding C functions are `posix_openpt`, `grantpt`, `unlockpt`, `ptsname_r`.
    public init(pseudoTerminal: Void) throws {
        var name = [CChar](repeating: 0, count: 128)
        let fd = dbx_open_pseudo_terminal(&name, name.count)
        guard fd >= 0 else {
            throw Failed(description: "cannot create a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        Self.makeNonBlocking(fd)
        self.fd = fd
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // A new pseudo-terminal echoes in cooked mode: until a terminal program opens it and
        // sets raw mode, our own prompt would come back to us as typing. Raw from the start.
        let other = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        if other >= 0 {
            var settings = termios()
            if tcgetattr(other, &settings) == 0 {
                cfmakeraw(&settings)
                tcsetattr(other, TCSANOW, &settings)
            }
            close(other)
        }
    }

    deinit {
        close(fd)
        close(wakeFD)
    }

    /// Ends a `read` that is waiting (from another thread), or the next one.
    public func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    /// Waits up to `timeoutMs` (-1: until bytes come or `wake()`) for bytes; returns what
    /// arrived, empty on timeout or wake. A hung-up other side (no terminal program
    /// attached yet) reads as nothing; the pseudo-terminal cannot say when one attaches,
    /// so then the wait is at most a second.
    public func read(timeoutMs: Int32) -> [UInt8] {
        var descriptors = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&descriptors, 2, timeoutMs)
        if descriptors[0].revents & Int16(POLLHUP) != 0, descriptors[1].revents == 0 {
            var wake = descriptors[1]
            _ = poll(&wake, 1, timeoutMs < 0 ? 1_000 : timeoutMs)
            descriptors[1] = wake
        }
        if descriptors[1].revents & Int16(POLLIN) != 0 {
            var count: UInt64 = 0
            _ = Glibc.read(wakeFD, &count, 8)
            return []
        }
        guard descriptors[0].revents & Int16(POLLIN) != 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 1_024)
        let count = Glibc.read(fd, &buffer, buffer.count)
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// Writes what the line takes within `timeoutMs`; the rest is dropped. A terminal that
    /// stops reading (detached, flow-controlled) must not block the console for ever, nor
    /// the appliance that waits for it to stop.
    public func write(_ bytes: [UInt8], timeoutMs: Int32 = 200) {
        if congested {
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return }
            congested = false
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
                continue
            }
            guard written < 0, errno == EAGAIN || errno == EINTR else { return }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&descriptor, 1, timeoutMs) > 0 else {
                congested = true
                return
            }
        }
    }

    /// Writes never block (see `write`).
    private static func makeNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    static let speeds: [Int: speed_t] = [
        9_600: speed_t(B9600), 19_200: speed_t(B19200), 38_400: speed_t(B38400), 57_600: speed_t(B57600),
        115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800), 921_600: speed_t(B921600),
    ]

    static func hint(_ code: Int32) -> String {
        switch code {
        case EACCES: " (add the service user to the 'dialout' group)"
        case ENOENT: " (is enable_uart=1 in config.txt?)"
        case EBUSY: " (a getty or another program holds it: disable serial-getty@ on this port)"
        default: ""
        }
    }
}
