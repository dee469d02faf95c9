/// What `system` answers: the machine the box runs on — its name and addresses, its Wi-Fi
/// link, CPU temperature and uptime where the machine has them — and the reconnects that
/// failed. A Codable answer: the console's lines in this order, or its JSON (`JSONValue`).
public struct SystemAnswer: Codable, Equatable, Sendable {
    public var hostname: String
    /// Its IP addresses, ", " between them.
    public var addresses: String
    public var wifiInterface: String?
    public var wifiSignalDbm: Int?
    public var wifiMissedBeacons: Int?
    public var cpuTemperatureC: Double?
    public var systemUptimeS: Int?
    public var reconnectsFailed: Int

    enum CodingKeys: String, CodingKey {
        case hostname, addresses
        case wifiInterface = "wifi_interface"
        case wifiSignalDbm = "wifi_signal_dbm"
        case wifiMissedBeacons = "wifi_missed_beacons"
        case cpuTemperatureC = "cpu_temperature_c"
        case systemUptimeS = "system_uptime_s"
        case reconnectsFailed = "reconnects_failed"
    }

    public init(
        hostname: String, addresses: String, wifiInterface: String? = nil, wifiSignalDbm: Int? = nil,
        wifiMissedBeacons: Int? = nil, cpuTemperatureC: Double? = nil, systemUptimeS: Int? = nil, reconnectsFailed: Int
    ) {
        self.hostname = hostname
        self.addresses = addresses
        self.wifiInterface = wifiInterface
        self.wifiSignalDbm = wifiSignalDbm
        self.wifiMissedBeacons = wifiMissedBeacons
        self.cpuTemperatureC = cpuTemperatureC
        self.systemUptimeS = systemUptimeS
        self.reconnectsFailed = reconnectsFailed
    }
}
