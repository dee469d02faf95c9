import DelayboxTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Delaybox and mpv delaying the same live 128 kbps MP3 stream from a real Icecast on
/// loopback, side by side in one run: CPU per minute of audio, memory growth per minute
/// of delay and peak memory, Delaybox's figures over mpv's.
///
/// Both hold the audio for `delaySeconds` (mpv: `--cache-pause-initial=yes
/// --cache-pause-wait=D`, which keeps the stream in its demuxer cache), then play to a
/// paced null output for `playSeconds`. Memory growth is taken while both only hold
/// (from `settleSeconds`, after connect bursts and start-up, to the end of the hold).
struct PeerComparison {
    var delaySeconds = 60.0
    var playSeconds = 30.0
    var settleSeconds = 10.0
    /// The Delaybox command line for a stream URL, the delay and the whole run (s).
    var delaybox: (_ url: String, _ delaySeconds: Double, _ totalSeconds: Double) throws -> [String]

    struct Figures {
        /// CPU per minute of audio once running (from `settleSeconds` to the end): what a
        /// box that plays for hours spends.
        var cpuSecondsPerMinute: Double
        /// CPU per minute of audio over the whole run, start-up included.
        var cpuSecondsPerMinuteWithStartup: Double
        var growthMBPerMinute: Double
        /// The largest resident memory of the run (MB).
        var peakMB: Double
        /// Wake-ups per second of each thread once running, by the thread's name.
        var wakeupsPerSecond: [String: Double]
        /// CPU per second of each thread once running (ms), by the thread's name.
        var cpuMillisecondsPerSecond: [String: Double]
    }

    /// Why the comparison cannot run here, or nil.
    static var missingPeer: String? {
        if !IcecastServer.isAvailable { return "icecast2 or ffmpeg not installed" }
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/mpv") {
            return "mpv not installed (deploy/setup-host.sh --bench)"
        }
        return nil
    }

    func run() throws -> (delaybox: Figures, mpv: Figures) {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3")
        let url = server.url(mount: "/live.mp3")
        let total = delaySeconds + playSeconds
        let ours = try ExternalTool.spawn(delaybox(url, delaySeconds, total))
        let peer = try ExternalTool.spawn([
            "mpv", "--no-config", "--no-video", "--ao=null", "--really-quiet",
            "--cache=yes", "--cache-pause-initial=yes",
            "--cache-pause-wait=\(Int(delaySeconds))", "--length=\(Int(total))", url,
        ])
        defer { ours.kill(); peer.kill() }
        let started = Date()
        func sampleBoth(at seconds: Double) throws -> (ProcessSample, ProcessSample) {
            try ProcessSample.pair(ours, peer, at: seconds, since: started)
        }
        let settled = try sampleBoth(at: settleSeconds)
        let held = try sampleBoth(at: delaySeconds - 1)
        let end = try sampleBoth(at: total - 1)
        let holdMinutes = (delaySeconds - 1 - settleSeconds) / 60
        func figures(_ settled: ProcessSample, _ held: ProcessSample, _ end: ProcessSample) -> Figures {
            Figures(
                cpuSecondsPerMinute: (end.cpuSeconds - settled.cpuSeconds) / ((total - 1 - settleSeconds) / 60),
                cpuSecondsPerMinuteWithStartup: end.cpuSeconds / ((total - 1) / 60),
                growthMBPerMinute: Double(held.residentBytes - settled.residentBytes) / 1e6 / holdMinutes,
                peakMB: Double(end.peakResidentBytes) / 1e6,
                wakeupsPerSecond: end.wakeupsPerSecond(since: settled, seconds: total - 1 - settleSeconds),
                cpuMillisecondsPerSecond: end.cpuMillisecondsPerSecond(
                    since: settled, seconds: total - 1 - settleSeconds))
        }
        return (figures(settled.0, held.0, end.0), figures(settled.1, held.1, end.1))
    }
}
