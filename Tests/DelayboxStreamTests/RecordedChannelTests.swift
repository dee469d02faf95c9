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
        var switches: [Date] = []
        for (moment, channel) in [(9.0, "Away"), (12.0, "Home")] {
            box.wait(until: moment)
            let switched = try box.ctl(["channel", channel])
            switches.append(Date())  // the box has switched when it answers
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
        // Each switch where the WAV has it, by the output's first frame and the box's answer
        // (these windows were fixed times after the process started, which a loaded machine
        // moves: CI20 found Home's tone a quarter of a second into Away's window). The tone
        // of the new channel is there within 0.4 s of the switch.
        let heard = try #require(OnAirAppliance.firstFrameHeard(in: run.log), "\(run.log)")
        let (away, home) = (switches[0].timeIntervalSince(heard), switches[1].timeIntervalSince(heard))
        let capture = try WavCapture(path: box.wav)
        #expect(
            abs(capture.crossingsPerSecond(from: away - 2, to: away - 0.4) - 880) < 20,
            "Home's 440 Hz before the switch")
        #expect(
            abs(capture.crossingsPerSecond(from: away + 0.4, to: home - 0.4) - 1_760) < 30,
            "Away's 880 Hz at once after it (the switch \(away) s into the output)")
        #expect(
            abs(capture.crossingsPerSecond(from: home + 0.4, to: home + 3) - 880) < 20,
            "Home's again at once after the switch back (\(home) s into the output)")
    }
}
