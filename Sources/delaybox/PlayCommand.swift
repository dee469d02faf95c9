import ArgumentParser
import DelayboxApp
import DelayboxConfig
import DelayboxEngine
import DelayboxOutput
import DelayboxPlatform
import FoundationEssentials

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play one stream through the engine without a board, printing state changes and events.",
        discussion: """
            URL is an Icecast/SHOUTcast stream (http, https), HLS or a local file, in a format the box's FFmpeg is built with (docs/security.md).
            A local file is read at real-time pace, as if it were live, unless --fast.
            """)

    @Argument(help: "The stream URL or file.")
    var url: String

    @Option(name: .long, help: "Delay to hold, in seconds.")
    var delay: Double = 5

    @Option(name: .customLong("for"), help: "Stop after this many seconds of output (0: until interrupted).")
    var seconds: Double = 0

    @Option(name: .long, help: "alsa:NAME (an ALSA device: default, hw:CARD=…, a plugin), wav:PATH or null.")
    var output: String = "null"

    @Flag(name: .long, help: "Run as fast as the input can be read (virtual time).")
    var fast = false

    @Flag(name: .long, help: "Print one JSON object per line.")
    var json = false

    @Option(
        name: .long,
        help:
            "What the output adds after the device, in seconds (a Bluetooth speaker: 0.15-0.25); played that much earlier."
    )
    var outputLatency: Double = 0

    @Option(name: .long, help: "No data for this many seconds counts as a stall.")
    var stallTimeout: Double = 5

    @Option(name: .long, help: "Longest wait between reconnect attempts, in seconds.")
    var backoffCap: Double = 30

    func run() throws {
        guard let output = OutputDevice(output) else {
            throw ValidationError("--output wants alsa:NAME, wav:PATH or null; got '\(output)'")
        }
        if fast, output.kind.pacesItself {
            throw ValidationError("--fast plays faster than real time: it writes to wav:PATH or null, not a sound card")
        }
        let lineup: ChannelLineup
        do {
            lineup = try ChannelLineup([Channel(name: "play", streamURL: url)])
        } catch {
            throw ValidationError(error.problems.joined(separator: "; "))
        }
        var options = StreamPlayer.Options(lineup: lineup)
        options.delay = .milliseconds(try milliseconds(delay, "--delay"))
        options.seconds = seconds
        options.output = output
        options.fast = fast
        options.json = json
        options.outputLatency = .milliseconds(try milliseconds(outputLatency, "--output-latency"))
        guard options.outputLatency <= AudioSettings.maximumOutputLatency else {
            throw ValidationError("--output-latency is at most \(AudioSettings.maximumOutputLatency.wholeSeconds) s")
        }
        options.client.input.stallTimeout = .milliseconds(try milliseconds(stallTimeout, "--stall-timeout"))
        options.client.backoff.cap = .milliseconds(try milliseconds(backoffCap, "--backoff-cap"))
        let status = try StreamPlayer(options: options) { line in
            StandardStream.output.write(line + "\n")
        }.run()
        if status.state == .failed { throw ExitCode(2) }
    }
}
