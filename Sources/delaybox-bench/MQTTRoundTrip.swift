import DelayboxMosquitto
import DelayboxTestSupport
import Foundation
import Synchronization

/// `mqtt_command_to_applied_ms`: a command published to a running appliance until its
/// status shows it applied, through a real mosquitto on loopback — the median (and 90th
/// percentile) of 100 round trips (`volume N`, each a new N). The appliance plays the demo
/// channel to ALSA's `null` device in the shipped boards' periods (20 ms × 4), so its
/// playout wakes every 80 ms, as on a board; a command wakes it at once.
enum MQTTRoundTrip {
    static func figures(delaybox: String) throws {
        guard MosquittoBroker.isAvailable else {
            Bench.skip(["mqtt_command_to_applied_ms"], because: "mosquitto is not installed (deploy/setup-host.sh)")
            return
        }
        let broker = try MosquittoBroker()
        let appliance = try BoxUnderTest(
            executables: URL(fileURLWithPath: delaybox).deletingLastPathComponent(), name: "bench-mqtt"
        ) { _ in
            Bench.demoBoard + """
                mqtt:
                  broker: mqtt://127.0.0.1:\(broker.port)
                  client_id: bench

                """
        }
        // (Stopped at the end, not dropped after its last use: it has to run meanwhile.)
        defer { appliance.stop() }
        // The volume the last status showed, and a signal on each.
        let shown = Mutex<Int?>(nil)
        let arrived = DispatchSemaphore(value: 0)
        let client = try MosquittoClient(.init(host: "127.0.0.1", port: broker.port, clientID: "bench-sender")) {
            event in
            guard case .message(_, let payload, _) = event, let volume = StatusVolume.read(payload) else { return }
            shown.withLock { $0 = volume }
            arrived.signal()
        }
        client.start()
        defer { client.stop(lastWords: nil) }
        let ready = Date().addingTimeInterval(20)
        while !client.isConnected || shown.withLock({ $0 }) == nil {
            if !client.isConnected {
                Thread.sleep(forTimeInterval: 0.05)
            } else {
                client.subscribe("delaybox/bench/status"); _ = arrived.wait(timeout: .now() + 1)
            }
            guard Date() < ready else {
                throw ExternalTool.Failed(
                    description: "the appliance published no status in 20 s: \(appliance.log.suffix(800))")
            }
        }
        var times: [Double] = []
        for trip in 0..<100 {
            let volume = 20 + trip % 60
            let start = DispatchTime.now()
            // QoS 0, as Home Assistant sends a command by default: with QoS 1 the broker's
            // acknowledgement goes ahead of the status and, under Nagle's algorithm
            // (mosquitto's default), holds it until the sender's delayed ACK: +40 ms.
            client.publish(.init(topic: "delaybox/bench/command", payload: "volume \(volume)", retain: false, qos: 0))
            while shown.withLock({ $0 }) != volume {
                guard arrived.wait(timeout: .now() + 2) == .success else {
                    throw ExternalTool.Failed(description: "volume \(volume): no status showing it within 2 s")
                }
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
            Thread.sleep(forTimeInterval: 0.05 + Double(trip % 7) * 0.011)  // not in step with the playout's wake-ups
        }
        times.sort()
        print("mqtt_command_to_applied_ms: \(Bench.format(times[times.count / 2]))")
        print("mqtt_command_to_applied_ms_p90: \(Bench.format(times[times.count * 9 / 10]))")
    }
}
