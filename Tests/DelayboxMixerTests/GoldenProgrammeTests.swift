import DelayboxEngine
import DelayboxMixer
import DelayboxTestSupport
import Foundation
import Testing

/// A scripted programme — muted, an ad break, unmuted, a pause, a jump, feedback — whose
/// output is compared with a reviewed recording of it (`Golden/programme.txt`: per 20 ms
/// period, the left channel's RMS and mean, the right channel's mean, to 4 decimals).
/// After an intended change of the mix, regenerate with `DELAYBOX_UPDATE_GOLDEN=1` and
/// review the diff.
@Suite(.timeLimit(.minutes(10))) struct GoldenProgrammeTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Golden/programme.txt")

    @Test func theScriptedProgrammeSoundsAsRecorded() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(5_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 300)
        rig.events = [
            520: .streamerMuted, 560: .adBreak(AdBreak(audioURL: "file:///ad.mp3", durationMs: 600)),
            620: .streamerUnmuted, 700: .adBreak(AdBreak(audioURL: "file:///ad.mp3", durationMs: 400)),
        ]
        let mix = ProgrammeMix()
        // Music: a 200 Hz sine at −20 dBFS; ad: a 600 Hz square-ish tone at −14 dBFS.
        mix.setMuteMusic(
            AudioClip(
                stereo: (0..<48_000).flatMap { frame -> [Float] in
                    let value = Float(0.1 * sin(2 * Double.pi * 200 * Double(frame) / 48_000))
                    return [value, value]
                }), url: "file:///music.mp3")
        mix.provideAd(
            AudioClip(
                stereo: (0..<48_000).flatMap { frame -> [Float] in
                    let value: Float = (frame / 40) % 2 == 0 ? 0.2 : -0.2
                    return [value, -value]
                }), url: "file:///ad.mp3")
        let engine = rig.engine
        rig.output.afterRender = { buffer, first in mix.mix(buffer, renderedBy: engine, firstFrame: first) }
        rig.run(milliseconds: 7_000)
        mix.play(FeedbackSound.click.clip)
        rig.run(milliseconds: 2_000)
        engine.pause(now: rig.now)
        mix.play(FeedbackSound.limitReached.clip)
        rig.run(milliseconds: 600)
        engine.resume(now: rig.now)
        rig.run(milliseconds: 1_400)
        _ = engine.setDelay(.milliseconds(3_000), now: rig.now)
        rig.run(milliseconds: 3_000)

        let samples = rig.output.samples
        var lines: [String] = []
        for period in 0..<samples.count / 1_920 {
            let slice = samples[period * 1_920..<(period + 1) * 1_920]
            let left = stride(from: slice.startIndex, to: slice.endIndex, by: 2).map { slice[$0] }
            let right = stride(from: slice.startIndex + 1, to: slice.endIndex, by: 2).map { slice[$0] }
            let rms = sqrt(left.map { $0 * $0 }.reduce(0, +) / Float(left.count))
            let mean = { (values: [Float]) in values.reduce(0, +) / Float(values.count) }
            lines.append(String(format: "%4d %.4f %.4f %.4f", period, rms, mean(left), mean(right)))
        }
        let text = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["DELAYBOX_UPDATE_GOLDEN"] == "1" {
            try text.write(to: Self.golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: Self.golden, encoding: .utf8).split(separator: "\n")
        let actual = text.split(separator: "\n")
        #expect(actual.count == expected.count)
        let first = zip(actual, expected).first { $0 != $1 }
        #expect(first == nil, "first differing period: \(first.map { "got \($0.0), recorded \($0.1)" } ?? "")")
    }
}
