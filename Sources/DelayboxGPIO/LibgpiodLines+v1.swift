#if !LIBGPIOD2
    import CGPIOD
    import DelayboxControls
    import DelayboxUnits
    #if canImport(Glibc)
        import Glibc
    #endif

    /// The lines GPIOChip uses, through libgpiod 1.6 (Debian 12, Raspberry Pi OS bookworm;
    /// deprecated upstream): one line handle per line, requested for both edges' events or
    /// as an output. No kernel debounce: the button decoder debounces on the timestamps.
    final class LibgpiodLines {
        static let consumer = "delaybox"
        static var version: String { "libgpiod " + String(cString: gpiod_version_string()) }
        static let kernelDebounce = false

        private let chip: OpaquePointer
        private var watched: [(line: Int, handle: OpaquePointer, fd: Int32)] = []
        private var outputs: [Int: OpaquePointer] = [:]

        /// Opens the chip by name, path, label or number.
        /// The corresponding C function is `gpiod_chip_open_lookup`.
        init(chip name: String) throws(GPIOError) {
            guard let chip = gpiod_chip_open_lookup(name) else {
                throw GPIOError.from(errno: errno == 0 ? ENOENT : errno, chip: name, what: "the chip")
            }
            self.chip = chip
        }

        deinit {
            gpiod_chip_close(chip)  // releases every line requested from it
        }

        /// Releases every requested line.
        /// The corresponding C function is `gpiod_line_release`.
        func release() {
            for input in watched { gpiod_line_release(input.handle) }
            for line in outputs.values { gpiod_line_release(line) }
            watched.removeAll()
            outputs.removeAll()
        }

        var inputs: [Int] { watched.map(\.line) }
        var descriptors: [Int32] { watched.map(\.fd) }

        /// Requests `input` for both edges with its bias.
        /// The corresponding C function is `gpiod_line_request_both_edges_events_flags`.
        func watch(_ input: GPIOChip.Input, chip name: String) throws(GPIOError) {
            let what = "GPIO line \(input.line)"
            guard let line = gpiod_chip_get_line(chip, UInt32(input.line)) else {
                throw GPIOError.from(errno: errno, chip: name, what: what)
            }
            let flags: Int32 =
                switch input.pull {
                case .asIs: 0
                case .up: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
                case .down: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
                case .disabled: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
                }
            guard gpiod_line_request_both_edges_events_flags(line, Self.consumer, flags) == 0 else {
                let code = errno
                throw GPIOError.from(
                    errno: code, chip: name, what: what, consumer: gpiod_line_consumer(line).map { String(cString: $0) }
                )
            }
            watched.append((input.line, line, gpiod_line_event_get_fd(line)))
        }

        /// Requests `number` as an output, low.
        /// The corresponding C function is `gpiod_line_request_output`.
        func drive(line number: Int, chip name: String) throws(GPIOError) {
            guard let line = gpiod_chip_get_line(chip, UInt32(number)),
                gpiod_line_request_output(line, Self.consumer, 0) == 0
            else {
                throw GPIOError.from(errno: errno, chip: name, what: "GPIO line \(number)")
            }
            outputs[number] = line
        }

        func set(line: Int, high: Bool) {
            if let handle = outputs[line] { gpiod_line_set_value(handle, high ? 1 : 0) }
        }

        func isHigh(line: Int) -> Bool {
            watched.first { $0.line == line }.map { gpiod_line_get_value($0.handle) == 1 } ?? false
        }

        /// The edge waiting on the `index`th watched line.
        /// The corresponding C function is `gpiod_line_event_read`.
        func readEdges(input index: Int) -> [EdgeEvent] {
            var event = gpiod_line_event()
            guard gpiod_line_event_read(watched[index].handle, &event) == 0 else { return [] }
            let time = Instant(
                nanoseconds: Int64(event.ts.tv_sec) * Instant.nanosecondsPerSecond + Int64(event.ts.tv_nsec))
            return [
                EdgeEvent(
                    line: watched[index].line, high: event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE), at: time)
            ]
        }
    }
#endif
