import CGPIOD
import DelayboxControls
#if canImport(Glibc)
import Glibc
#endif

/// The front panel's lines on one GPIO chip through libgpiod 1.6: inputs watched for both
/// edges (with the kernel's timestamps), LEDs as outputs. One thread calls
/// `waitForEdges`, which polls every input line's descriptor at once.
///
/// A libgpiod 2 adapter would sit beside this one behind the same three calls
/// (`levels`, `waitForEdges`, `set(led:lit:)`); nothing above it names libgpiod.
public final class GPIOChip {
    public struct Input: Sendable {
        public var line: Int
        public var pull: Pull
        public init(line: Int, pull: Pull) {
            self.line = line
            self.pull = pull
        }
    }

    public enum Pull: Sendable {
        case asIs, up, down, disabled
    }

    public let name: String
    private let chip: OpaquePointer
    private var inputs: [(line: Int, handle: OpaquePointer, fd: Int32)] = []
    private var outputs: [Int: OpaquePointer] = [:]
    static let consumer = "delaybox"

    /// Opens the chip by name, path, label or number (`gpiochip0`, `/dev/gpiochip0`, a
    /// gpio-sim label).
    /// The corresponding C function is `gpiod_chip_open_lookup`.
    public init(_ name: String) throws(GPIOError) {
        self.name = name
        guard let chip = gpiod_chip_open_lookup(name) else {
            throw GPIOError.from(errno: errno == 0 ? ENOENT : errno, chip: name, what: "the chip")
        }
        self.chip = chip
    }

    deinit {
        gpiod_chip_close(chip)  // releases every line requested from it
    }

    /// Requests `input` for both edges with its bias.
    /// The corresponding C function is `gpiod_line_request_both_edges_events_flags`.
    public func watch(_ input: Input) throws(GPIOError) {
        let what = "GPIO line \(input.line)"
        guard let line = gpiod_chip_get_line(chip, UInt32(input.line)) else {
            throw GPIOError.from(errno: errno, chip: name, what: what)
        }
        let flags: Int32 = switch input.pull {
        case .asIs: 0
        case .up: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .down: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        case .disabled: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        }
        guard gpiod_line_request_both_edges_events_flags(line, Self.consumer, flags) == 0 else {
            let code = errno
            throw GPIOError.from(errno: code, chip: name, what: what, consumer: gpiod_line_consumer(line).map { String(cString: $0) })
        }
        inputs.append((input.line, line, gpiod_line_event_get_fd(line)))
    }

    /// Requests `line` as an output (an LED), initially off.
    /// The corresponding C function is `gpiod_line_request_output`.
    public func drive(line number: Int) throws(GPIOError) {
        let what = "GPIO line \(number)"
        guard let line = gpiod_chip_get_line(chip, UInt32(number)), gpiod_line_request_output(line, Self.consumer, 0) == 0 else {
            throw GPIOError.from(errno: errno, chip: name, what: what)
        }
        outputs[number] = line
    }

    /// Sets an output line's level.
    public func set(line: Int, high: Bool) {
        if let handle = outputs[line] { gpiod_line_set_value(handle, high ? 1 : 0) }
    }

    /// The watched lines' levels now (the quadrature decoder's starting point).
    public func levels() -> [Int: Bool] {
        Dictionary(uniqueKeysWithValues: inputs.map { ($0.line, gpiod_line_get_value($0.handle) == 1) })
    }

    /// Waits up to `timeoutMs` (−1: for ever) for edges on any watched line; returns
    /// them in time order, stamped by the kernel.
    /// The corresponding C functions are `poll` and `gpiod_line_event_read`.
    public func waitForEdges(timeoutMs: Int32) throws(GPIOError) -> [EdgeEvent] {
        var descriptors = inputs.map { pollfd(fd: $0.fd, events: Int16(POLLIN | POLLPRI), revents: 0) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeoutMs)
        if ready < 0 {
            if errno == EINTR { return [] }
            throw GPIOError.from(errno: errno, chip: name, what: "waiting for edges")
        }
        var edges: [EdgeEvent] = []
        for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
            var event = gpiod_line_event()
            guard gpiod_line_event_read(inputs[index].handle, &event) == 0 else { continue }
            let nanoseconds = Int64(event.ts.tv_sec) * 1_000_000_000 + Int64(event.ts.tv_nsec)
            edges.append(EdgeEvent(line: inputs[index].line, high: event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE),
                                   nanoseconds: nanoseconds))
        }
        return edges.sorted { $0.nanoseconds < $1.nanoseconds }
    }
}
