import DelayboxPlatform
import Foundation
import Testing

/// The machine's figures from a /proc and /sys laid out as a Pi's are.
@Suite(.timeLimit(.minutes(10))) struct SystemFiguresTests {
    @Test func wifiTemperatureAndUptimeAreReadAsTheKernelWritesThem() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("system-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["proc/net", "sys/class/thermal/thermal_zone0"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try """
        Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE
         face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22
         wlan0: 0000   52.  -58.  -256        0      0      0      3      0       17        0

        """.write(to: root.appendingPathComponent("proc/net/wireless"), atomically: true, encoding: .utf8)
        try "48312\n".write(
            to: root.appendingPathComponent("sys/class/thermal/thermal_zone0/temp"), atomically: true, encoding: .utf8)
        try "86523.17 170000.00\n".write(
            to: root.appendingPathComponent("proc/uptime"), atomically: true, encoding: .utf8)
        let figures = SystemFigures.read(root: root.path)
        #expect(
            figures.wifi?.interface == "wlan0" && figures.wifi?.signalDBm == -58 && figures.wifi?.missedBeacons == 17)
        #expect(figures.cpuTemperatureC == 48.312 && figures.uptimeS == 86_523)
        // A wired board: the header lines alone. Garbage: nothing taken, nothing trapped.
        try "Inter-| sta-|\n face | tus |\n".write(
            to: root.appendingPathComponent("proc/net/wireless"), atomically: true, encoding: .utf8)
        try "1e300 0\n".write(to: root.appendingPathComponent("proc/uptime"), atomically: true, encoding: .utf8)
        let wired = SystemFigures.read(root: root.path)
        #expect(wired.wifi == nil && wired.uptimeS == nil)
    }

    @Test func theMachinesOwnAddressesLeaveLoopbackOut() {
        let figures = SystemFigures.read()
        #expect(!figures.addresses.contains { $0.hasPrefix("lo ") }, "\(figures.addresses)")
    }
}
