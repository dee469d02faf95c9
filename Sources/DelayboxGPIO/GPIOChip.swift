import CGPIOD
import DelayboxControls
import DelayboxSystem
import DelayboxUnits

#if canImport(Glibc)
    import Glibc
#endif

/// The front panel's lines on one GPIO chip through libgpiod: inputs watched for both
/// edges (with the kernel's timestamps on CLOCK_MONOTONIC), LEDs as outputs. One thread
/// calls `waitForEdges`, which polls every input line's descriptor at once.
///
/// libgpiod 2 (`LibgpiodLines` in LibgpiodLines+v2.swift) is the main path; 1.6 is the
/// other file, for Debian 12 boards. Nothing above this type names libgpiod.
public final class GPIOChip {
    public struct Input: Sendable {
        public var line: Int
        public var pull: Pull
        /// How long a level must hold before the kernel reports its edge (µs; 0: every
        /// edge). Buttons use it where the kernel can (libgpiod 2): a bouncing contact
        /// then wakes the panel once, not a dozen times. The encoder's lines take 0: its
        /// decoder rejects bounce itself and must see fast turns' every quarter step.
        public var debounceMicroseconds: Int
        public init(line: Int, pull: Pull, debounceMicroseconds: Int = 0) {
            self.line = line
            self.pull = pull
            self.debounceMicroseconds = debounceMicroseconds
        }
    }

    public enum Pull: Sendable {
        case asIs, up, down, disabled
    }

    public let name: String
    private let lines: LibgpiodLines

    /// Opens the chip by name, path, label or number (`gpiochip0`, `/dev/gpiochip0`,
    /// `pinctrl-bcm2711`, `0`).
    public init(_ name: String) throws(GPIOError) {
        self.name = name
        lines = try LibgpiodLines(chip: name)
    }

    /// The libgpiod this build uses, for the log (`libgpiod 2.2.1`).
    public static var library: String { LibgpiodLines.version }

    /// Whether the kernel debounces inputs (`Input.debounceMicroseconds`) with this libgpiod.
    public static var kernelDebounce: Bool { LibgpiodLines.kernelDebounce }

    /// Requests `input` for both edges with its bias.
    public func watch(_ input: Input) throws(GPIOError) {
        try lines.watch(input, chip: name)
    }

    /// Requests `line` as an output (an LED), initially off.
    public func drive(line: Int) throws(GPIOError) {
        try lines.drive(line: line, chip: name)
    }

    /// Sets an output line's level.
    public func set(line: Int, high: Bool) {
        lines.set(line: line, high: high)
    }

    /// The device of the chip `name` names: a path as it is, a number as /dev/gpiochipN, a
    /// device name found in `chips`, or the chip in `chips` with that label (a gpio-sim
    /// bank's, `pinctrl-bcm2711`). libgpiod 2 opens chips by path only; 1.x looked a name
    /// up itself. `chips` (each GPIO character device with its label) is asked for only
    /// when the name is neither a path nor a number.
    static func devicePath(for name: String, among chips: () -> [(path: String, label: String?)]) -> String? {
        if name.hasPrefix("/") { return name }
        if let number = Int(name), number >= 0 { return "/dev/gpiochip\(number)" }
        let known = chips()
        return known.first { $0.path == "/dev/" + name }?.path ?? known.first { $0.label == name }?.path
    }

    /// Gives every requested line back to the kernel (the chip stays open): another
    /// request for them, this process's or another's, succeeds from now on.
    public func release() {
        lines.release()
    }

    /// The watched lines' levels now (the quadrature decoder's starting point).
    public func levels() -> [Int: Bool] {
        Dictionary(uniqueKeysWithValues: lines.inputs.map { ($0, lines.isHigh(line: $0)) })
    }

    /// Waits up to `timeout` (to the next millisecond) for edges on any watched line;
    /// returns them in time order, stamped by the kernel.
    /// The corresponding C function is `poll`.
    public func waitForEdges(timeout: TimeAmount) throws(GPIOError) -> [EdgeEvent] {
        var descriptors = lines.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN | POLLPRI), revents: 0) }
        do { _ = try Poll.wait(&descriptors, .atMost(timeout)) } catch {
            throw GPIOError.from(errno: error.code, chip: name, what: "waiting for edges")
        }
        var edges: [EdgeEvent] = []
        for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
            edges += lines.readEdges(input: index)
        }
        return edges.sorted { $0.time < $1.time }
    }
}
