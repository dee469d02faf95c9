import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The machine as an installer checks it (the console's `system`, the page's Box section):
/// its addresses, its Wi-Fi link (signal, missed beacons: a dozing or distant radio is the
/// first cause of dropped streams on a Pi), the CPU's temperature, how long it has been up.
public struct SystemFigures: Sendable, Equatable {
    public struct WiFi: Sendable, Equatable {
        public var interface: String
        /// The signal level (dBm) the driver reports.
        public var signalDBm: Int
        /// Beacons from the access point the radio missed since it came up.
        public var missedBeacons: Int
    }

    /// `INTERFACE ADDRESS` for every address but loopback's.
    public var addresses: [String] = []
    public var wifi: WiFi?
    /// The first thermal zone's temperature (°C), usually the SoC's on a Pi.
    public var cpuTemperatureC: Double?
    /// Seconds since the kernel started.
    public var uptimeS: Int?

    /// None known yet.
    public init() {}

    /// The figures now; `root` is where /proc and /sys are (a test's directory).
    public static func read(root: String = "") -> SystemFigures {
        var figures = SystemFigures()
        figures.addresses = root.isEmpty ? interfaceAddresses() : []
        figures.wifi = (try? String(contentsOfFile: root + "/proc/net/wireless", encoding: .utf8)).flatMap(
            wifi(fromProcNetWireless:))
        if let text = try? String(contentsOfFile: root + "/sys/class/thermal/thermal_zone0/temp", encoding: .utf8),
            let milli = Int(text.filter(\.isNumber))
        {
            figures.cpuTemperatureC = Double(milli) / 1_000
        }
        if let text = try? String(contentsOfFile: root + "/proc/uptime", encoding: .utf8),
            let seconds = text.split(separator: " ").first.flatMap({ Double($0) }), seconds.isFinite, seconds >= 0,
            seconds < 1e12
        {
            figures.uptimeS = Int(seconds)
        }
        return figures
    }

    /// The first interface of /proc/net/wireless (two header lines, then `wlan0: STATUS
    /// LINK. LEVEL. NOISE. NWID CRYPT FRAG RETRY MISC BEACON …`).
    static func wifi(fromProcNetWireless text: String) -> WiFi? {
        for line in text.split(separator: "\n").dropFirst(2) {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let fields = parts[1].split(separator: " ").map { $0.hasSuffix(".") ? $0.dropLast() : $0 }
            guard fields.count >= 10, let level = Double(fields[2]), level.isFinite, abs(level) < 1_000,
                let beacons = Int(fields[9])
            else { continue }
            return WiFi(interface: String(parts[0].filter { $0 != " " }), signalDBm: Int(level), missedBeacons: beacons)
        }
        return nil
    }

    private static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var next = list
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0 else {
                continue
            }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else {
                continue
            }
            let name = String(cString: entry.pointee.ifa_name)
            addresses.append(
                "\(name) \(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        return addresses
    }
}
