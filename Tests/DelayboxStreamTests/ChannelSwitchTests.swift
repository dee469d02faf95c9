import DelayboxApp
import DelayboxEngine
import DelayboxTestSupport
import Foundation
import Synchronization
import Testing

/// Switching channels on a running player, against two live mounts of a real Icecast.
@Suite(.serialized, .enabled(if: IcecastServer.isAvailable, "needs icecast2 and ffmpeg (deploy/setup-host.sh installs them)"))
struct ChannelSwitchTests {
    @Test func theNextChannelPlaysItsOwnStreamAtTheSameDelay() throws {
        let server = try IcecastServer()
        try server.startSource(mount: "/a.mp3", frequency: 440)
        try server.startSource(mount: "/b.mp3", frequency: 880)
        let directory = try ExternalTool.temporaryDirectory("switch")
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("out.wav").path
        var options = StreamPlayer.Options(lineup: try ChannelLineup([
            Channel(name: "A", streamURL: server.url(mount: "/a.mp3")),
            Channel(name: "B", streamURL: server.url(mount: "/b.mp3")),
        ]))
        options.delayMs = 2_000
        options.seconds = 13
        options.output = .wav(wav)
        options.json = true
        let requests = PlayerRequests()
        let lines = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let finalDelay = Mutex<Int64?>(nil)
        let thread = Thread { [options] in
            let player = StreamPlayer(options: options, requests: requests) { line in lines.withLock { $0.append(line) } }
            finalDelay.withLock { $0 = try? player.run().delayMs }
            done.signal()
        }
        thread.start()
        Thread.sleep(forTimeInterval: 6)
        let switched = Date()
        requests.post(.selectChannel("nope"))
        requests.post(.nextChannel)
        done.wait()
        let elapsedAtSwitch = 13 - Date().timeIntervalSince(switched)

        let capture = try WavCapture(path: wav)
        #expect(abs(capture.crossingsPerSecond(from: 3.5, to: 5.5) - 880) < 20, "channel A's 440 Hz before the switch")
        #expect(abs(capture.crossingsPerSecond(from: capture.seconds - 2.5, to: capture.seconds) - 1_760) < 30, "channel B's 880 Hz at the end")
        #expect(capture.peak(from: elapsedAtSwitch + 0.1, to: elapsedAtSwitch + 0.5) < 100,
                "A does not play on after the switch: B's audio has to be recorded for the delay first")
        #expect(lines.withLock { $0 }.contains { $0.contains("no channel named 'nope'") }, "an unknown name is refused, said")
        let channels = lines.withLock { $0 }.filter { $0.contains("\"type\":\"channel\"") }
        #expect(channels.count == 2 && channels.last?.contains("\"name\":\"B\"") == true, "\(channels)")
        #expect(finalDelay.withLock { $0 } == 2_000, "the delay is carried over to the new channel")
    }
}
