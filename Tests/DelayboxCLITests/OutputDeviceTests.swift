import DelayboxAudio
import DelayboxTestSupport
import Foundation
import Testing

/// The built `delaybox` against real libasound devices that need no sound card: PCMs
/// defined in a config overlay (`ALSA_CONFIG_PATH`, read per process, so each case runs
/// in its own), and the stock `file` plugin. Output, and the line-in as a channel.
@Suite(.serialized, .timeLimit(.minutes(10))) struct OutputDeviceTests {
    func delaybox(_ arguments: [String], environment: [String: String] = [:]) throws -> ExternalTool.Outcome {
        try ExternalTool.execute(
            BuiltProgram.url("delaybox", root: CommandLineTests.root), arguments, environment: environment)
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
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            try? definition.write(to: overlay, atomically: true, encoding: .utf8)
        }
        let result = try delaybox(
            ["play", "demo://commentary", "--delay", "1", "--for", "4", "--output", "alsa:later"],
            environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(overlay.path)"])
        #expect(result.status == 0, "\(result.errors)")
        let failures = result.output.split(separator: "\n").filter { $0.contains("audio output cannot open: later") }
        #expect(failures.first?.hasSuffix("next try in 500 ms") == true, "\(result.output)")
        #expect(
            failures.dropFirst().first?.hasSuffix("next try in 1000 ms") == true, "each failure once: \(result.output)")
        let opened = result.output.split(separator: "\n").first {
            $0.contains("audio output alsa:later: 48000 Hz, 2 ch")
        }
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
        func play(device: String, mixer: String?, volume: Int) throws -> (status: Int32, log: String) {
            let simulated = CommandLineTests.root.appendingPathComponent("board-configs/simulated-host.yaml").path
            var yaml = "extends: \(simulated)\naudio:\n  device: \(device)\n"
            if let mixer { yaml += "  mixer: \(mixer)\n" }
            yaml += "defaults:\n  volume: \(volume)\n"
            return try BoxUnderTest(
                executables: BoxUnderTest.debugBuild(root: CommandLineTests.root), name: "volume-\(volume)",
                arguments: ["--delay", "1", "--seconds", "2"], board: { _ in yaml }
            ).finish()
        }
        let full = directory.appendingPathComponent("full.wav"), quiet = directory.appendingPathComponent("quiet.raw")
        let loud = try play(device: "wav:\(full.path)", mixer: nil, volume: 100)
        #expect(loud.status == 0, "\(loud.log)")
        let soft = try play(device: "alsa:file:FILE=\(quiet.path),FORMAT=raw", mixer: "Digital", volume: 50)
        #expect(soft.status == 0, "\(soft.log)")
        #expect(soft.log.contains("mixer control 'Digital':"), "\(soft.log)")
        #expect(soft.log.contains("using software volume"), "\(soft.log)")

        func peak(_ data: Data) -> Int {
            data.withUnsafeBytes { Int($0.bindMemory(to: Int16.self).map { abs(Int($0)) }.max() ?? 0) }
        }
        // The last second: both are playing the demo programme by then (1 s delay).
        let loudPeak = peak(try Data(contentsOf: full).dropFirst(44).suffix(48_000 * 4))
        let softPeak = peak(try Data(contentsOf: quiet).suffix(48_000 * 4))
        #expect(loudPeak > 4_000, "the programme is audible at full volume: \(loudPeak)")
        let ratio = Double(softPeak) / Double(loudPeak)
        #expect(
            abs(ratio - Double(VolumeCurve.gain(50))) < 0.01,
            "volume 50 played at \(ratio) of full, the curve says \(VolumeCurve.gain(50))")
    }

    /// An analogue source on the line-in, delayed like a stream: the `file` plugin's
    /// `infile` plays the codec's ADC (a millisecond counter, left = -right), paced at
    /// real time by the driver. Every frame heard is the input at one constant delay, the
    /// one the player reports.
    @Test func theLineInIsAChannelHeardAtAConstantDelay() throws {
        let directory = try ExternalTool.temporaryDirectory("line-in")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.raw"), wav = directory.appendingPathComponent("out.wav")
        var counter = [Int16](repeating: 0, count: 2 * 6 * 48_000)
        for frame in 0..<(6 * 48_000) {
            let milliseconds = Int16(1_000 + frame / 48)
            counter[2 * frame] = milliseconds
            counter[2 * frame + 1] = -milliseconds
        }
        try counter.withUnsafeBytes { Data($0) }.write(to: input)
        let overlay = directory.appendingPathComponent("overlay.conf")
        try "pcm.linein { type file slave.pcm \"null\" file \"/dev/null\" infile \"\(input.path)\" format \"raw\" }\n"
            .write(to: overlay, atomically: true, encoding: .utf8)
        let result = try delaybox(
            ["play", "alsa:linein", "--delay", "1", "--for", "4", "--output", "wav:\(wav.path)"],
            environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(overlay.path)"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("line-in alsa:linein: 48000 Hz, 2 ch, S16_LE"), "\(result.output)")
        let reported = result.output.split(separator: "\n").compactMap { line -> Double? in
            guard let range = line.range(of: "delay: "),
                line.hasSuffix("(raisedToMinimum)") || line.hasSuffix("(requested)")
            else { return nil }
            return Double(line[range.upperBound...].prefix { $0.isNumber })
        }.last
        let delayMs = try #require(reported, "\(result.output)")

        // Heard at frame k (ms k / 48), said at counter - 1000 ms after the input began.
        let samples = try WavCapture.stereoSamples(path: wav.path)
        var offsets: [Int: Int] = [:]
        for frame in 0..<(samples.count / 2)
        where samples[2 * frame] >= 1_000 && samples[2 * frame + 1] == -samples[2 * frame] {
            offsets[frame / 48 - Int(samples[2 * frame] - 1_000), default: 0] += 1
        }
        let (offset, frames) = try #require(offsets.max { $0.value < $1.value })
        #expect(frames > 3 * 48_000 / 2, "\(frames) frames of the line-in heard")
        let steady = offsets.filter { abs($0.key - offset) <= 1 }.values.reduce(0, +)
        #expect(
            Double(steady) >= 0.99 * Double(offsets.values.reduce(0, +)),
            "one delay throughout: \(offsets.sorted { $0.key < $1.key }.prefix(10))")
        // The offset counts from the WAV's first frame, not the input's: within the start-up.
        #expect(
            abs(Double(offset) - delayMs) < 150, "heard \(offset) ms after the input, the player says \(delayMs) ms")
    }
}
