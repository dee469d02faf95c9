import DelayboxTestSupport
import Foundation

/// What a channel recorded in the background (`record: true`) costs: two appliances side
/// by side on the same live 128 kbps stream, one of them also recording a second stream;
/// the difference in CPU per minute and in memory growth per minute of what it holds.
struct RecordedChannelCost {
    var delaybox: String
    var seconds = 70.0
    var settleSeconds = 10.0

    func run() throws -> (cpuSecondsPerMinute: Double, mbPerMinute: Double) {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3")
        try server.startSource(mount: "/other.mp3", frequency: 880)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("delaybox-bench-recorded-\(getpid())")
        defer { try? FileManager.default.removeItem(at: base) }
        let plain = ApplianceRun(executable: delaybox, directory: base.appendingPathComponent("plain"))
        let recording = ApplianceRun(executable: delaybox, directory: base.appendingPathComponent("recording"))
        let url = server.url(mount: "/live.mp3")
        let one = try ExternalTool.spawn(plain.command(url: url, delaySeconds: 5, totalSeconds: seconds))
        let two = try ExternalTool.spawn(
            recording.command(
                url: url, delaySeconds: 5, totalSeconds: seconds,
                recording: server.url(mount: "/other.mp3")))
        defer { one.kill(); two.kill() }
        let started = Date()
        let settled = try ProcessSample.pair(one, two, at: settleSeconds, since: started)
        let end = try ProcessSample.pair(one, two, at: seconds - 1, since: started)
        let minutes = (seconds - 1 - settleSeconds) / 60
        let cpu = ((end.1.cpuSeconds - settled.1.cpuSeconds) - (end.0.cpuSeconds - settled.0.cpuSeconds)) / minutes
        let grown =
            Double((end.1.residentBytes - settled.1.residentBytes) - (end.0.residentBytes - settled.0.residentBytes))
            / 1e6 / minutes
        return (cpu, grown)
    }
}
