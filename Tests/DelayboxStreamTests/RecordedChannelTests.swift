import DelayboxTestSupport
import Foundation
import Testing

/// A channel recorded in the background (`record: true`, issue 26), on a live Icecast (in
/// the Icecast suite, which runs its servers one at a time).
extension IcecastStreamTests {
    /// Home (440 Hz) plays at a 6 s delay while Away (880 Hz) is recorded beside it; the
    /// switch to Away plays it at once at 6 s — not after the 2 s its connect burst (4 s at
    /// 128 kbps) leaves to fill — and the switch back to Home, recorded too now that Away
    /// played, is as quick.
    @Test func aChannelRecordedInTheBackgroundPlaysAtOnceAtTheDelay() throws {
        let server = try IcecastServer()
        try server.startSource(mount: "/home.mp3", frequency: 440)
        try server.startSource(mount: "/away.mp3", frequency: 880)
        let box = try OnAirAppliance(
            root: Self.root,
            channels: [
                ("Home", server.url(mount: "/home.mp3")),
                ("Away", server.url(mount: "/away.mp3")),
            ],
            recorded: ["Home", "Away"], delay: 6, seconds: 16)
        var statuses: [String] = []
        for (moment, channel) in [(9.0, "Away"), (12.0, "Home")] {
            box.wait(until: moment)
            let switched = try box.ctl(["channel", channel])
            #expect(switched.status == 0, "\(switched.output)\(switched.errors)")
            box.wait(until: moment + 0.4)
            statuses.append(try box.ctl(["status"]).output)
        }
        let status = statuses[1]
        let run = box.finish()
        #expect(run.status == 0, "\(run.log)")
        #expect(run.log.contains("recording 'Away' in the background"), "\(run.log)")
        #expect(run.log.contains("channel: Away") && run.log.contains("recorded in the background: "), "\(run.log)")
        #expect(
            status.contains("state: playing") && status.contains("delay_ms: 6000"),
            "0.4 s after the switch back: \(status)")
        #expect(
            statuses[0].contains("channel: Away") && statuses[0].contains("recording: Home"),
            "Home records on: \(statuses[0])")
        #expect(status.contains("channel: Home") && status.contains("recording: Away"), "Away records on: \(status)")
        // The WAV starts when the box's output does (≤ 0.3 s after the process): each switch
        // is heard by then; the tone of the new channel is there within 0.4 s of it.
        let capture = try WavCapture(path: box.wav)
        #expect(abs(capture.crossingsPerSecond(from: 7, to: 8.6) - 880) < 20, "Home's 440 Hz before the switch")
        #expect(abs(capture.crossingsPerSecond(from: 9.4, to: 11.6) - 1_760) < 30, "Away's 880 Hz at once after it")
        #expect(
            abs(capture.crossingsPerSecond(from: 12.4, to: 15) - 880) < 20, "Home's again at once after the switch back"
        )
    }
}
