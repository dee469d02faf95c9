import DelayboxAudio
import DelayboxTestSupport
import Foundation
import Testing

/// The built `delaybox` against real libasound devices that need no sound card: a PCM
/// defined in a config overlay (`ALSA_CONFIG_PATH`, read per process, so each case runs
/// in its own), and the stock `file` plugin.
@Suite(.serialized) struct OutputDeviceTests {
    func delaybox(_ arguments: [String], environment: [String: String] = [:]) throws -> ExternalTool.Outcome {
        try ExternalTool.execute(CommandLineTests.root.appendingPathComponent(".build/debug/delaybox"), arguments, environment: environment)
    }

    /// A USB DAC plugged in after the box started: the PCM does not exist at start, and is
    /// defined in the overlay a second later. Back-off retries (0.5 s, then 1 s) find it,
    /// and the audio from then on goes to it.
    @Test func aDeviceThatAppearsAfterTheStartIsPlayedTo() throws {
        let directory = try ExternalTool.temporaryDirectory("appears")
        defer { try? FileManager.default.removeItem(at: directory) }
        let overlay = directory.appendingPathComponent("overlay.conf")
        let raw = directory.appendingPathComponent("out.raw")
        try "# no PCM yet\n".write(to: overlay, atomically: true, encoding: .utf8)
        let definition = "pcm.later { type file slave.pcm \"null\" file \"\(raw.path)\" format \"raw\" }\n"
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { try? definition.write(to: overlay, atomically: true, encoding: .utf8) }
        let result = try delaybox(["play", "demo://commentary", "--delay", "1", "--for", "4", "--output", "alsa:later"],
                                  environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(overlay.path)"])
        #expect(result.status == 0, "\(result.errors)")
        let failures = result.output.split(separator: "\n").filter { $0.contains("audio output cannot open: later") }
        #expect(failures.first?.hasSuffix("next try in 500 ms") == true, "\(result.output)")
        #expect(failures.dropFirst().first?.hasSuffix("next try in 1000 ms") == true, "each failure once: \(result.output)")
        let opened = result.output.split(separator: "\n").first { $0.contains("audio output alsa:later: 48000 Hz, 2 ch") }
        let openedAt = try #require(opened.flatMap { Double($0.split(separator: " ")[0]) }, "\(result.output)")
        // Found by a retry (the second, at 1.5 s, unless this machine is busy): from then
        // to the end of the 4 s run, S16 stereo reaches the file.
        let data = try Data(contentsOf: raw)
        let seconds = Double(data.count) / 4 / 48_000
        #expect(abs(seconds - (4 - openedAt)) < 0.15, "\(seconds) s in the file for a device opened at \(openedAt) s")
        #expect(data.suffix(48_000 * 4).contains { $0 != 0 }, "the programme plays there")
    }

    /// A board whose mixer control cannot be opened (no card here) says so and turns the
    /// volume down in software instead: its output is the full-volume output times the
    /// perceptual curve's gain.
    @Test func withoutAMixerControlTheVolumeIsAppliedInSoftware() throws {
        let directory = try ExternalTool.temporaryDirectory("volume")
        defer { try? FileManager.default.removeItem(at: directory) }
        func play(device: String, mixer: String?, volume: Int) throws -> ExternalTool.Outcome {
            let board = directory.appendingPathComponent("board-\(volume).yaml")
            let simulated = CommandLineTests.root.appendingPathComponent("board-configs/simulated-host.yaml").path
            var yaml = "extends: \(simulated)\naudio:\n  device: \(device)\n"
            if let mixer { yaml += "  mixer: \(mixer)\n" }
            yaml += "defaults:\n  volume: \(volume)\n"
            try yaml.write(to: board, atomically: true, encoding: .utf8)
            return try delaybox(["run", "--board", board.path, "--state", directory.appendingPathComponent("state-\(volume).json").path,
                                 "--delay", "1", "--seconds", "2"])
        }
        let full = directory.appendingPathComponent("full.wav"), quiet = directory.appendingPathComponent("quiet.raw")
        let loud = try play(device: "wav:\(full.path)", mixer: nil, volume: 100)
        #expect(loud.status == 0, "\(loud.errors)")
        let soft = try play(device: "alsa:file:FILE=\(quiet.path),FORMAT=raw", mixer: "Digital", volume: 50)
        #expect(soft.status == 0, "\(soft.errors)")
        #expect(soft.errors.contains("mixer control 'Digital':"), "\(soft.errors)")
        #expect(soft.errors.contains("using software volume"), "\(soft.errors)")

        func peak(_ data: Data) -> Int {
            data.withUnsafeBytes { Int($0.bindMemory(to: Int16.self).map { abs(Int($0)) }.max() ?? 0) }
        }
        // The last second: both are playing the demo programme by then (1 s delay).
        let loudPeak = peak(try Data(contentsOf: full).dropFirst(44).suffix(48_000 * 4))
        let softPeak = peak(try Data(contentsOf: quiet).suffix(48_000 * 4))
        #expect(loudPeak > 4_000, "the programme is audible at full volume: \(loudPeak)")
        let ratio = Double(softPeak) / Double(loudPeak)
        #expect(abs(ratio - Double(VolumeCurve.gain(50))) < 0.01, "volume 50 played at \(ratio) of full, the curve says \(VolumeCurve.gain(50))")
    }
}
