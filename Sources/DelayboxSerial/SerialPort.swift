import CTermios
import DelayboxSystem
import DelayboxUnits

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

    private let line: FileDescriptor
    /// Signalled by `wake()`: a waiting `read` returns at once.
    private let wakeup: Wakeup
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
        let line: FileDescriptor
        do {
            line = try FileDescriptor.open(device, O_RDWR | O_NOCTTY)
        } catch {
            throw Failed(description: "cannot open \(device): \(error)" + Self.hint(error))
        }
        var settings = termios()
        guard tcgetattr(line.rawValue, &settings) == 0 else {
            throw Failed(description: "\(device) is not a terminal device")
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        cfsetspeed(&settings, speed)
        tcsetattr(line.rawValue, TCSANOW, &settings)
        try Self.prepare(line, path: device)
        self.line = line
        wakeup = try Self.wakeup()
        path = device
    }

    /// A new pseudo-terminal; `path` is the side a terminal program opens.
    /// The corresponding C functions are `posix_openpt`, `grantpt`, `unlockpt`, `ptsname_r`.
    public init(pseudoTerminal: Void) throws {
        var name = [CChar](repeating: 0, count: 128)
        let descriptor = dbx_open_pseudo_terminal(&name, name.count)
        guard descriptor >= 0 else {
            throw Failed(description: "cannot create a pseudo-terminal: \(Errno.current)")
        }
        let line = FileDescriptor(adopting: descriptor)
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        try Self.prepare(line, path: path)
        self.line = line
        wakeup = try Self.wakeup()
        // A new pseudo-terminal echoes in cooked mode: until a terminal program opens it and
        // sets raw mode, our own prompt would come back to us as typing. Raw from the start.
        if let other = try? FileDescriptor.open(path, O_RDWR | O_NOCTTY) {
            var settings = termios()
            if tcgetattr(other.rawValue, &settings) == 0 {
                cfmakeraw(&settings)
                tcsetattr(other.rawValue, TCSANOW, &settings)
            }
        }
    }

    /// Ends a `read` that is waiting (from another thread), or the next one.
    public func wake() { wakeup.wake() }

    /// Waits `wait` (`.forever`: until bytes come or `wake()`) for bytes; returns what
    /// arrived, empty on timeout or wake. A hung-up other side (no terminal program
    /// attached yet) reads as nothing; the pseudo-terminal cannot say when one attaches,
    /// so then the wait is at most a second.
    /// A failed wait (not one a signal interrupted) is a line that cannot be read any
    /// more: it reads as nothing, after the same wait, so the console's loop never spins.
    public func read(_ wait: Poll.Wait) -> [UInt8] {
        var descriptors = [
            pollfd(fd: line.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        guard (try? Poll.wait(&descriptors, wait)) != nil else {
            return idle(wait)
        }
        if Poll.Events(rawValue: descriptors[0].revents).contains(.hungUp), descriptors[1].revents == 0 {
            // Waits for the wake-up alone: a hung-up line is ready at once, for ever.
            var wake = [descriptors[1]]
            _ = try? Poll.wait(&wake, Self.bounded(wait))
            descriptors[1] = wake[0]
        }
        if Poll.Events(rawValue: descriptors[1].revents).contains(.readable) {
            wakeup.drain()
            return []
        }
        guard Poll.Events(rawValue: descriptors[0].revents).contains(.readable) else { return [] }
        var buffer = [UInt8](repeating: 0, count: 1_024)
        let count = (try? line.read(into: &buffer)) ?? 0
        return Array(buffer.prefix(count))
    }

    /// Waits for the wake-up alone, at most `wait` (a second when unlimited).
    private func idle(_ wait: Poll.Wait) -> [UInt8] {
        var wake = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
        if (try? Poll.wait(&wake, Self.bounded(wait))) ?? 0 > 0 { wakeup.drain() }
        return []
    }

    /// `wait`, a second when it is unlimited: what nothing but a wake-up can end.
    private static func bounded(_ wait: Poll.Wait) -> Poll.Wait {
        wait == .forever ? .atMost(.seconds(1)) : wait
    }

    /// Writes what the line takes within `wait`; the rest is dropped. A terminal that
    /// stops reading (detached, flow-controlled) must not block the console for ever, nor
    /// the appliance that waits for it to stop.
    public func write(_ bytes: [UInt8], within wait: Poll.Wait = .atMost(.milliseconds(200))) {
        if congested {
            guard (try? line.wait(for: Int16(POLLOUT), .none))?.contains(.writable) == true else { return }
            congested = false
        }
        var offset = 0
        while offset < bytes.count {
            do {
                let written = try line.write(bytes[offset...])
                guard written > 0 else { return }
                offset += written
                continue
            } catch .wouldBlock {
                // Full: wait below for the line to take more.
            } catch {
                return
            }
            guard (try? line.wait(for: Int16(POLLOUT), wait))?.contains(.writable) == true else {
                congested = true
                return
            }
        }
    }

    /// Writes never block (see `write`).
    private static func prepare(_ line: FileDescriptor, path: String) throws(Failed) {
        do { try line.makeNonBlocking() } catch { throw Failed(description: "cannot set up \(path): \(error)") }
    }

    private static func wakeup() throws(Failed) -> Wakeup {
        do { return try Wakeup() } catch { throw Failed(description: "cannot make a wake-up descriptor: \(error)") }
    }

    static let speeds: [Int: speed_t] = [
        9_600: speed_t(B9600), 19_200: speed_t(B19200), 38_400: speed_t(B38400), 57_600: speed_t(B57600),
        115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800), 921_600: speed_t(B921600),
    ]

    static func hint(_ error: Errno) -> String {
        switch error.code {
        case EACCES: " (add the service user to the 'dialout' group)"
        case ENOENT: " (is enable_uart=1 in config.txt?)"
        case EBUSY: " (a getty or another program holds it: disable serial-getty@ on this port)"
        default: ""
        }
    }
}
