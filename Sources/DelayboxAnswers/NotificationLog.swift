import DelayboxConfig
import DelayboxEngine
import DelayboxJSON
import DelayboxLog
import DelayboxUnits
import FoundationEssentials
import Glibc

/// Turns engine notifications into the lines the appliance and `delaybox play` print:
/// a readable sentence, or one JSON object per line for scripts.
public enum NotificationLog {
    public static func text(_ notification: EngineNotification) -> String {
        switch notification {
        case .stateChanged(let from, let to, let reason): "state: \(from.rawValue) -> \(to.rawValue) (\(reason))"
        case .availableDelayChanged(let ms): "available delay: \(ms) ms"
        case .delayChanged(let ms, let reason): "delay: \(ms) ms (\(reason.rawValue))"
        case .eventTookEffect(let event, .movedByJump, _, let elapsed):
            "playout moved within \(describe(event.event)): \(AudioFormat.milliseconds(frames: elapsed)) ms into it"
        case .eventTookEffect(let event, let transition, _, let elapsed):
            "event: \(describe(event.event)) \(transition.rawValue)"
                + (event.event.kind == "ad" && elapsed > 0
                    ? ", \(AudioFormat.milliseconds(frames: elapsed)) ms into it" : "")
        case .eventNotTriggered(let event, let why): "event: \(describe(event)) not triggered: \(why)"
        case .audioLost(_, let frames): "audio lost: \(AudioFormat.milliseconds(frames: frames)) ms"
        case .spliced(let overlap): "reconnect spliced, \(AudioFormat.milliseconds(frames: overlap)) ms overlap"
        case .pauseExceededMaximum(let frames):
            "pause beyond maximum delay: dropped \(AudioFormat.milliseconds(frames: frames)) ms"
        case .packetRejected(let why): "packet rejected: \(why)"
        case .reconnectFailed(let why): "reconnect failed: \(why)"
        case .stationClockFarOff(let ppm):
            "the station's clock runs \(ppmText(ppm)) ppm off this box's (its encoder's sound card): followed"
        }
    }

    /// `ppm` signed, to 0.1.
    private static func ppmText(_ ppm: Double) -> String {
        (ppm > 0 ? "+" : "") + String((ppm * 10).rounded() / 10)
    }

    /// The journal level of a notification: INFO for what a maintainer acts on — state
    /// changes, delay changes, events, faults and recoveries; DEBUG for the available delay
    /// growing, said each second while the buffer fills (up to 3,600 lines an hour of SD-card
    /// writes; `status` and `delay` answer it when asked).
    /// Also DEBUG: playout moving within an ad break, which every delay change and resync
    /// inside one does (not a new event).
    public static func level(of notification: EngineNotification) -> Logger.Level {
        switch notification {
        case .availableDelayChanged, .eventTookEffect(_, .movedByJump, _, _): return .debug
        default: return .info
        }
    }

    public static func json(_ notification: EngineNotification, atSeconds seconds: Double) -> String {
        JSONText.encode(answer: line(notification, atSeconds: seconds))
    }

    /// The `play --json` line of a notification.
    public static func line(_ notification: EngineNotification, atSeconds seconds: Double) -> PlayLine {
        var line = PlayLine(type: "", t: (seconds * 1000).rounded() / 1000)
        switch notification {
        case .stateChanged(let from, let to, let reason):
            (line.type, line.from, line.to, line.reason) = ("state", from.rawValue, to.rawValue, reason.description)
        case .availableDelayChanged(let ms): (line.type, line.ms) = ("available_delay", ms)
        case .delayChanged(let ms, let reason): (line.type, line.ms, line.reason) = ("delay", ms, reason.rawValue)
        case .eventTookEffect(let event, let transition, let frame, let elapsed):
            line.type = "event"
            line.outputFrame = frame
            describe(event.event, transition.rawValue, elapsedFrames: elapsed, into: &line)
        case .eventNotTriggered(let event, let why):
            line.type = "event"
            line.reason = why
            describe(event, "not_triggered", elapsedFrames: nil, into: &line)
        case .audioLost(let position, let frames):
            (line.type, line.position, line.ms) = ("audio_lost", position, AudioFormat.milliseconds(frames: frames))
        case .spliced(let overlap): (line.type, line.overlapMs) = ("spliced", AudioFormat.milliseconds(frames: overlap))
        case .pauseExceededMaximum(let frames):
            (line.type, line.ms) = ("pause_dropped", AudioFormat.milliseconds(frames: frames))
        case .packetRejected(let why): (line.type, line.reason) = ("packet_rejected", why)
        case .reconnectFailed(let why): (line.type, line.reason) = ("reconnect_failed", why)
        case .stationClockFarOff(let ppm): (line.type, line.ppm) = ("station_clock", (ppm * 10).rounded() / 10)
        }
        return line
    }

    /// An event's `kind`, `detail`, `transition`, and for an ad that took effect `elapsed_ms`
    /// (how far into it it was joined).
    static func describe(
        _ event: StreamEvent, _ transition: String, elapsedFrames: Int64?, into line: inout PlayLine
    ) {
        (line.kind, line.detail, line.transition) = (event.kind, describe(event), transition)
        if event.kind == "ad", let elapsedFrames { line.elapsedMs = AudioFormat.milliseconds(frames: elapsedFrames) }
    }

    /// An event as the console's `events` lists it: what it was, where it sits in the
    /// stream (s on the connection's timeline) and when it was heard (local time to the
    /// millisecond, to compare with the picture).
    /// - Parameter utcOffsetSeconds: the time zone's offset; nil: the system's (/etc/localtime, TZ).
    public static func eventEntry(_ text: String, streamFrame: Int64, heardAt: Date, utcOffsetSeconds: Int? = nil)
        -> String
    {
        let stream = String(printf: "%.3f", Double(streamFrame) / Double(AudioFormat.sampleRate))
        let milliseconds = Int64((heardAt.timeIntervalSince1970 * 1000).rounded(.down))
        let whole = (milliseconds - (milliseconds < 0 ? 999 : 0)) / 1000
        var seconds = time_t(whole)
        var local = tm()
        if let utcOffsetSeconds {
            seconds += time_t(utcOffsetSeconds)
            gmtime_r(&seconds, &local)
        } else {
            localtime_r(&seconds, &local)
        }
        let heard = String(
            printf: "%02d:%02d:%02d.%03d", local.tm_hour, local.tm_min, local.tm_sec,
            Int32(milliseconds - whole * 1000))
        return "\(text) · stream \(stream) s · heard \(heard)"
    }

    /// An event that took effect, as the doors hear it (`HeardEvent`).
    public static func heard(
        _ event: TimelineEvent, _ transition: EventTransition, elapsedFrames: Int64, heardUnixMs: Int64
    ) -> HeardEvent {
        HeardEvent(
            kind: event.event.kind, detail: describe(event.event), transition: transition.rawValue,
            elapsedMs: event.event.kind == "ad" ? AudioFormat.milliseconds(frames: elapsedFrames) : nil,
            streamS: Double(event.position) / Double(AudioFormat.sampleRate), heardUnixMs: heardUnixMs)
    }

    public static func describe(_ event: StreamEvent) -> String {
        switch event {
        case .streamerMuted: "streamer muted"
        case .streamerUnmuted: "streamer unmuted"
        case .adBreak(let ad): "ad break \(ad.durationMs) ms (\(ad.audioURL))"
        case .title(let title): "title '\(title)'"
        }
    }
}
