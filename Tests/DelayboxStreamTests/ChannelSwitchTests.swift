import DelayboxApp
import DelayboxConfig
import DelayboxEngine
import DelayboxOutput
import DelayboxTestSupport
import Foundation
import Synchronization
import Testing

/// Switching channels on a running player, against two live mounts of a real Icecast
/// (in the Icecast suite, which runs its servers one at a time).
extension IcecastStreamTests {
    @Test func theNextChannelPlaysItsOwnStreamAtTheSameDelay() throws {
        let server = try IcecastServer()
        try server.startSource(mount: "/a.mp3", frequency: 440)
        try server.startSource(mount: "/b.mp3", frequency: 880)
        let directory = try ExternalTool.temporaryDirectory("switch")
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("out.wav").path
        var options = StreamPlayer.Options(
            lineup: try ChannelLineup([
                Channel(name: "A", streamURL: server.url(mount: "/a.mp3")),
                Channel(name: "B", streamURL: server.url(mount: "/b.mp3")),
            ]))
        options.delay = .milliseconds(2_000)
        options.seconds = 13
        options.output = OutputDevice(WavOutputKind(path: wav))
        options.json = true
        let requests = PlayerRequests()
        let lines = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let finalDelay = Mutex<Int64?>(nil)
        let thread = Thread { [options] in
            let player = StreamPlayer(options: options, requests: requests) { line in lines.withLock { $0.append(line) }
            }
            finalDelay.withLock { $0 = try? player.run().delay.milliseconds }
            done.signal()
        }
        thread.start()
        // Switched once channel A's 440 Hz has been heard for 2.2 s (the WAV is written at
        // real-time pace): the checks below look at the 2 s before the switch.
        #expect(
            Eventually.holds(within: 20) {
                let written = WavCapture.secondsWritten(path: wav)
                guard written > 2.5, let capture = try? WavCapture(path: wav) else { return false }
                return abs(capture.crossingsPerSecond(from: written - 2.2, to: written - 0.05) - 880) < 20
            }, "channel A heard")
        requests.post(.selectChannel("nope"))
        requests.post(.nextChannel)
        done.wait()

        #expect(
            lines.withLock { $0 }.contains { $0.contains("no channel named 'nope'") },
            "an unknown name is refused, said")
        let channels = lines.withLock { $0 }.filter { $0.contains("\"type\":\"channel\"") }
        #expect(channels.count == 2 && channels.last?.contains("\"name\":\"B\"") == true, "\(channels)")
        // The output time of the switch (when B's first frame is heard): the player writes
        // the WAV at real-time pace from 0.
        let switchLine = try #require(
            channels.last.flatMap { try? JSONDecoder().decode(PlayLine.self, from: Data($0.utf8)) })
        let switchedAt = try #require(switchLine.t)
        let capture = try WavCapture(path: wav)
        #expect(
            abs(capture.crossingsPerSecond(from: switchedAt - 2, to: switchedAt - 0.2) - 880) < 20,
            "channel A's 440 Hz before the switch")
        #expect(
            abs(capture.crossingsPerSecond(from: capture.seconds - 2.7, to: capture.seconds - 0.2) - 1_760) < 30,
            "channel B's 880 Hz at the end")
        // After the switch: silence until B's first audio is placed (its connect burst may
        // already cover the delay), then B's 880 Hz; never A's 440 Hz (half period 54.5 samples).
        #expect(
            capture.halfPeriods(from: switchedAt - 1, to: switchedAt - 0.2).contains { (45...65).contains($0) },
            "the detector hears A before the switch")
        let heardA = capture.halfPeriods(from: switchedAt, to: capture.seconds).filter { (45...65).contains($0) }
        #expect(heardA.isEmpty, "A after the switch at \(switchedAt) s: \(heardA.count) half periods of 440 Hz")
        #expect(finalDelay.withLock { $0 } == 2_000, "the delay is carried over to the new channel")
    }
}
