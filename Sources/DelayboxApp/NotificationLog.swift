import DelayboxEngine
import DelayboxLog
import Foundation

/// Turns engine notifications into the lines the appliance and `delaybox play` print:
/// a readable sentence, or one JSON object per line for scripts.
public enum NotificationLog {
    public static func text(_ notification: EngineNotification) -> String {
        switch notification {
        case .stateChanged(let from, let to, let reason): "state: \(from.rawValue) -> \(to.rawValue) (\(reason))"
        case .availableDelayChanged(let ms): "available delay: \(ms) ms"
        case .delayChanged(let ms, let reason): "delay: \(ms) ms (\(reason.rawValue))"
        case .eventTookEffect(let event, let transition, _, let elapsed):
            "event: \(describe(event.event)) \(transition.rawValue)" + (event.event.kind == "ad" && elapsed > 0 ? ", \(AudioFormat.milliseconds(frames: elapsed)) ms into it" : "")
        case .eventNotTriggered(let event, let why): "event: \(describe(event)) not triggered: \(why)"
        case .audioLost(_, let frames): "audio lost: \(AudioFormat.milliseconds(frames: frames)) ms"
        case .spliced(let overlap): "reconnect spliced, \(AudioFormat.milliseconds(frames: overlap)) ms overlap"
        case .pauseExceededMaximum(let frames): "pause beyond maximum delay: dropped \(AudioFormat.milliseconds(frames: frames)) ms"
        case .packetRejected(let why): "packet rejected: \(why)"
        case .reconnectFailed(let why): "reconnect failed: \(why)"
        }
    }

    /// The journal level of a notification: INFO for what a maintainer acts on — state
    /// changes, delay changes, events, faults and recoveries; DEBUG for the available delay
    /// growing, said each second while the buffer fills (up to 3,600 lines an hour of SD-card
    /// writes; `status` and `delay` answer it when asked).
    public static func level(of notification: EngineNotification) -> Logger.Level {
        if case .availableDelayChanged = notification { return .debug }
        return .info
    }

    public static func json(_ notification: EngineNotification, atSeconds seconds: Double) -> String {
        var object: [String: Any] = ["t": (seconds * 1000).rounded() / 1000]
        switch notification {
        case .stateChanged(let from, let to, let reason):
            object.merge(["type": "state", "from": from.rawValue, "to": to.rawValue, "reason": reason.description]) { $1 }
        case .availableDelayChanged(let ms): object.merge(["type": "available_delay", "ms": ms]) { $1 }
        case .delayChanged(let ms, let reason): object.merge(["type": "delay", "ms": ms, "reason": reason.rawValue]) { $1 }
        case .eventTookEffect(let event, let transition, let frame, let elapsed):
            object.merge(["type": "event", "kind": event.event.kind, "detail": describe(event.event),
                          "transition": transition.rawValue, "output_frame": frame]) { $1 }
            if event.event.kind == "ad" { object["elapsed_ms"] = AudioFormat.milliseconds(frames: elapsed) }
        case .eventNotTriggered(let event, let why):
            object.merge(["type": "event", "kind": event.kind, "detail": describe(event), "transition": "not_triggered",
                          "reason": why]) { $1 }
        case .audioLost(let position, let frames):
            object.merge(["type": "audio_lost", "position": position, "ms": AudioFormat.milliseconds(frames: frames)]) { $1 }
        case .spliced(let overlap): object.merge(["type": "spliced", "overlap_ms": AudioFormat.milliseconds(frames: overlap)]) { $1 }
        case .pauseExceededMaximum(let frames):
            object.merge(["type": "pause_dropped", "ms": AudioFormat.milliseconds(frames: frames)]) { $1 }
        case .packetRejected(let why): object.merge(["type": "packet_rejected", "reason": why]) { $1 }
        case .reconnectFailed(let why): object.merge(["type": "reconnect_failed", "reason": why]) { $1 }
        }
        return jsonLine(object)
    }

    /// One JSON object on one line, keys sorted.
    /// An event as the console's `events` lists it: what it was, where it sits in the
    /// stream (s on the connection's timeline) and when it was heard (local time to the
    /// millisecond, to compare with the picture).
    public static func eventEntry(_ text: String, streamFrame: Int64, heardAt: Date, timeZone: TimeZone = .current) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        formatter.timeZone = timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let stream = String(format: "%.3f", Double(streamFrame) / Double(AudioFormat.sampleRate))
        return "\(text) · stream \(stream) s · heard \(formatter.string(from: heardAt))"
    }

    public static func jsonLine(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func describe(_ event: StreamEvent) -> String {
        switch event {
        case .streamerMuted: "streamer muted"
        case .streamerUnmuted: "streamer unmuted"
        case .adBreak(let ad): "ad break \(ad.durationMs) ms (\(ad.audioURL))"
        case .title(let title): "title '\(title)'"
        }
    }
}
