import ArgumentParser
import DelayboxApp
import DelayboxEngine
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the appliance: the test-tone channel, delayed, to a WAV file at real-time pace.")

    @Option(name: .long, help: "Delay to hold, in seconds.")
    var delay: Double = 5

    @Option(name: .long, help: "WAV file to write.")
    var output: String = "delaybox-out.wav"

    @Option(name: .long, help: "Stop after this many seconds (0: run until interrupted).")
    var seconds: Double = 0

    @Option(name: .long, help: "Initial buffer in seconds (1-5).")
    var buffer: Double = 1

    @Option(name: .long, help: "Maximum delay kept, in seconds.")
    var maxDelay: Double = 300

    func run() throws {
        var options = Appliance.Options()
        options.delayMs = Int64(delay * 1000)
        options.outputPath = output
        options.seconds = seconds
        options.engine.initialBufferMs = Int64(buffer * 1000)
        options.engine.maxDelayMs = Int64(maxDelay * 1000)
        let problems = options.engine.problems()
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "; ")) }
        try Appliance(options: options) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }.run()
    }
}
