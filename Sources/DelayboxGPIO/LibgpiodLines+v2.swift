#if LIBGPIOD2
    import CGPIOD
    import DelayboxControls
    import DelayboxUnits
    #if canImport(Glibc)
        import Glibc
    #endif

    /// The lines GPIOChip uses, through libgpiod 2 (Debian 13, Raspberry Pi OS trixie): one
    /// line request per line — inputs with both edges, bias, the kernel's debounce and
    /// CLOCK_MONOTONIC timestamps; outputs driven inactive at first.
    final class LibgpiodLines {
        static let consumer = "delaybox"
        static var version: String { "libgpiod " + String(cString: gpiod_api_version()) }
        /// libgpiod 2 passes a debounce period to the kernel (gpiolib debounces in software
        /// where the chip cannot).
        static let kernelDebounce = true
        /// Edge events read at once.
        static let eventCapacity = 16

        private let chip: OpaquePointer
        private let events: OpaquePointer
        private var watched: [(line: Int, request: OpaquePointer, fd: Int32)] = []
        private var outputs: [Int: OpaquePointer] = [:]

        /// Opens the chip `name` names.
        /// The corresponding C functions are `gpiod_chip_open` and `gpiod_edge_event_buffer_new`.
        init(chip name: String) throws(GPIOError) {
            guard let path = Self.path(of: name) else {
                throw GPIOError.from(errno: ENOENT, chip: name, what: "the chip")
            }
            guard let chip = gpiod_chip_open(path) else {
                throw GPIOError.from(errno: errno == ENOTTY ? ENODEV : errno, chip: name, what: "the chip")
            }
            guard let events = gpiod_edge_event_buffer_new(Self.eventCapacity) else {
                gpiod_chip_close(chip)
                throw GPIOError.from(errno: ENOMEM, chip: name, what: "the edge event buffer")
            }
            self.chip = chip
            self.events = events
        }

        deinit {
            release()
            gpiod_edge_event_buffer_free(events)
            gpiod_chip_close(chip)
        }

        /// Releases every line request.
        /// The corresponding C function is `gpiod_line_request_release`.
        func release() {
            for input in watched { gpiod_line_request_release(input.request) }
            for request in outputs.values { gpiod_line_request_release(request) }
            watched.removeAll()
            outputs.removeAll()
        }

        var inputs: [Int] { watched.map(\.line) }
        var descriptors: [Int32] { watched.map(\.fd) }

        /// The device of the chip `name` names (GPIOChip.devicePath), among /dev's chips.
        static func path(of name: String) -> String? {
            GPIOChip.devicePath(for: name) { chipDevices().map { ($0, label(of: $0)) } }
        }

        /// The GPIO character devices in /dev.
        private static func chipDevices() -> [String] {
            guard let directory = opendir("/dev") else { return [] }
            defer { closedir(directory) }
            var paths: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix("gpiochip"), gpiod_is_gpiochip_device("/dev/" + name) { paths.append("/dev/" + name) }
            }
            return paths.sorted()
        }

        /// A chip's label, as the kernel gives it.
        private static func label(of path: String) -> String? {
            guard let chip = gpiod_chip_open(path) else { return nil }
            defer { gpiod_chip_close(chip) }
            guard let info = gpiod_chip_get_info(chip) else { return nil }
            defer { gpiod_chip_info_free(info) }
            return String(cString: gpiod_chip_info_get_label(info))
        }

        /// Requests `input` for both edges.
        func watch(_ input: GPIOChip.Input, chip name: String) throws(GPIOError) {
            let bias =
                switch input.pull {
                case .asIs: GPIOD_LINE_BIAS_AS_IS
                case .up: GPIOD_LINE_BIAS_PULL_UP
                case .down: GPIOD_LINE_BIAS_PULL_DOWN
                case .disabled: GPIOD_LINE_BIAS_DISABLED
                }
            let request = try self.request(line: input.line, chip: name) { settings in
                gpiod_line_settings_set_debounce_period_us(settings, UInt(max(0, input.debounceMicroseconds)))
                return [
                    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT),
                    gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH),
                    gpiod_line_settings_set_bias(settings, bias),
                    gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC),
                ].allSatisfy { $0 == 0 }
            }
            watched.append((input.line, request, gpiod_line_request_get_fd(request)))
        }

        /// Requests `line` as an output, inactive.
        func drive(line: Int, chip name: String) throws(GPIOError) {
            outputs[line] = try request(line: line, chip: name) { settings in
                [
                    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT),
                    gpiod_line_settings_set_output_value(settings, GPIOD_LINE_VALUE_INACTIVE),
                ].allSatisfy { $0 == 0 }
            }
        }

        /// One line requested with the settings `configure` makes.
        /// The corresponding C function is `gpiod_chip_request_lines`.
        private func request(line: Int, chip name: String, _ configure: (OpaquePointer) -> Bool) throws(GPIOError)
            -> OpaquePointer
        {
            let what = "GPIO line \(line)"
            guard let settings = gpiod_line_settings_new(), let config = gpiod_line_config_new(),
                let requestConfig = gpiod_request_config_new()
            else {
                throw GPIOError.from(errno: ENOMEM, chip: name, what: what)
            }
            defer {
                gpiod_line_settings_free(settings)
                gpiod_line_config_free(config)
                gpiod_request_config_free(requestConfig)
            }
            var offset = UInt32(line)
            gpiod_request_config_set_consumer(requestConfig, Self.consumer)
            guard configure(settings), gpiod_line_config_add_line_settings(config, &offset, 1, settings) == 0 else {
                throw GPIOError.from(errno: errno, chip: name, what: what)
            }
            guard let request = gpiod_chip_request_lines(chip, requestConfig, config) else {
                let code = errno
                throw GPIOError.from(errno: code, chip: name, what: what, consumer: consumer(of: line))
            }
            return request
        }

        /// Who holds `line` (the kernel's name for the consumer), if anyone.
        private func consumer(of line: Int) -> String? {
            guard let info = gpiod_chip_get_line_info(chip, UInt32(line)) else { return nil }
            defer { gpiod_line_info_free(info) }
            return gpiod_line_info_get_consumer(info).map { String(cString: $0) }
        }

        func set(line: Int, high: Bool) {
            if let request = outputs[line] {
                _ = gpiod_line_request_set_value(
                    request, UInt32(line), high ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE)
            }
        }

        func isHigh(line: Int) -> Bool {
            guard let input = watched.first(where: { $0.line == line }) else { return false }
            return gpiod_line_request_get_value(input.request, UInt32(line)) == GPIOD_LINE_VALUE_ACTIVE
        }

        /// The edges waiting on the `index`th watched line.
        /// The corresponding C function is `gpiod_line_request_read_edge_events`.
        func readEdges(input index: Int) -> [EdgeEvent] {
            let input = watched[index]
            let count = gpiod_line_request_read_edge_events(input.request, events, Self.eventCapacity)
            guard count > 0 else { return [] }
            return (0..<Int(count)).compactMap { number in
                guard let event = gpiod_edge_event_buffer_get_event(events, UInt(number)) else { return nil }
                return EdgeEvent(
                    line: input.line, high: gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE,
                    at: Instant(nanoseconds: Int64(gpiod_edge_event_get_timestamp_ns(event))))
            }
        }
    }
#endif
