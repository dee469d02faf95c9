import DelayboxTestSupport
import Foundation
import Testing

/// The appliance's whole programme, end to end: the demo channel on a 9 s cycle (muted at
/// 2 s, unmuted at 3.5 s, a 1 s ad break at 6 s) with mute music fetched over HTTP from a
/// local server, recorded to a WAV file at real time and read back by frequency: the
/// music (300 Hz) sounds while the streamer is muted, the demo ad's chime (1046 Hz) in
/// the break, each for as long as the schedule says. The delay is 3 s: the ad is asked
/// for at the once-a-second scan after its break is recorded and must be ready a delay
/// later; with 1 s, a loaded machine (make test) heard it cut or not at all.
@Suite(.timeLimit(.minutes(10))) struct ProgrammeTests {
    @Test func muteMusicFromTheNetworkAndTheAdPlayWhenTheScheduleSays() throws {
        let directory = try ExternalTool.temporaryDirectory("programme")
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = directory.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try ExternalTool.encodeTone(
            frequency: 300, seconds: 4, sampleRate: 44_100, channels: 1, codecArguments: ["-b:a", "128k"],
            to: served.appendingPathComponent("music.mp3").path)
        let server = try StaticHTTPServer(directory: served)
        let wav = directory.appendingPathComponent("out.wav")
        let result = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: CommandLineTests.root), in: directory,
            arguments: ["--delay", "3", "--seconds", "12"]
        ) { _ in
            """
            extends: \(CommandLineTests.root.appendingPathComponent("board-configs/simulated-host.yaml").path)
            audio:
              device: wav:\(wav.path)
            channels:
              - name: Demo
                url: demo://commentary?cycle=9
                mute_music: \(server.url("music.mp3"))
            defaults:
              volume: 100
            """
        }.finish()
        #expect(result.status == 0, "\(result.log)")
        #expect(result.log.contains("clip ready: \(server.url("music.mp3"))"), "\(result.log)")
        #expect(result.log.contains("clip ready: demo://ad"), "the ad fetched when its break was recorded")
        let cached = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cache").path)
        #expect(cached.count == 1 && cached[0].hasSuffix(".mp3"), "\(cached)")

        let samples = try WavCapture.stereoSamples(path: wav.path)
        // -30 dB relative power: clearly there, far above leakage from the other sounds.
        let music = try #require(
            Goertzel.longestRun(samples, hertz: 300, threshold: 1e-4), "the mute music never sounded")
        let ad = try #require(Goertzel.longestRun(samples, hertz: 1_046.5, threshold: 1e-5), "the ad never sounded")
        // Muted 1.5 s; the 800 ms fades cross the threshold about 0.2 s after the fade-in
        // starts and 0.6 s after the fade-out starts (measured 1.95 s).
        #expect(music.length >= 1.7 && music.length <= 2.2, "music for \(music.length) s")
        // The ad's first note (1046 Hz, 500 ms, decaying) is its loudest run (measured 0.55 s).
        #expect(ad.length >= 0.35 && ad.length <= 0.7, "ad run \(ad.length) s")
        // Stream time 2.0 s (muted) to 6.0 s (break): 4 s apart at the output too, less the
        // music's 0.2 s to cross the threshold (measured 3.8 s).
        #expect(
            ad.start - music.start > 3.6 && ad.start - music.start < 4.1,
            "music at \(music.start) s, ad at \(ad.start) s")
        #expect(music.start > 4.5 && music.start < 6.0, "muted at 2 s, heard 3 s later (+ the start): \(music.start) s")
    }
}
