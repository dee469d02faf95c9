import DelayboxUnits

/// How near this box's wall clock is to the room's time, and so whether its venue figures
/// may count (issue 70). A room's boxes compare when each took the stream to be live on its
/// own wall clock (`VenueFigure`): a box whose clock is 80 ms off would move every other
/// box by 80 ms. So a box takes part only while chrony says its clock is within
/// `trustedError` of the server it follows (the venue's hub), or when its clock *is* the
/// room's (`mqtt.venue_clock: own`: the hub itself, or boxes sharing one machine).
public struct VenueClock: Sendable, Equatable {
    /// The most a wall clock may be off the room's for the box to take part (ms): the room
    /// plays as one within 5 ms (docs/mqtt.md), and each box's placement has its own share.
    public static let trustedError = TimeAmount.milliseconds(1)
    /// Fewest samples of the server chrony has before its spread is believed.
    static let fewestSamples = 4

    /// At most this far off the room's time (ms); nil: not known.
    public let errorMs: Double?
    /// The server the clock follows (chrony's selected source); nil for the room's own.
    public let source: String?
    /// Why the error is not known; nil when it is.
    public let problem: String?
    /// Whether this box's clock is the room's (`mqtt.venue_clock: own`), not a server's
    /// follower — a server may be named anything, "own" too.
    public var isRoomsOwn = false

    /// This box's clock is the room's.
    public static let own = VenueClock(errorMs: 0, source: nil, problem: nil, isRoomsOwn: true)

    /// Not known, for `reason`.
    public static func unknown(_ reason: String) -> VenueClock {
        VenueClock(errorMs: nil, source: nil, problem: reason)
    }

    /// Whether the box takes part in the room's alignment.
    public var trusted: Bool { errorMs.map { $0 <= Self.trustedError.seconds * 1_000 } ?? false }

    /// What `status` says: `within 0.04 ms of 192.168.1.10`, `the room's own`, or `not
    /// aligning: ` and `whyNot`.
    public var summary: String {
        if let whyNot { return "not aligning: \(whyNot)" }
        return isRoomsOwn
            ? "the room's own" : "within \(String(printf: "%.2f", errorMs ?? 0)) ms of \(source ?? "its server")"
    }

    /// Why the box does not take part: `3.40 ms off 192.168.1.10 (1 ms needed)`, `chrony
    /// follows no server`; nil when it does.
    public var whyNot: String? {
        guard let errorMs else { return problem ?? "the clock is not known" }
        guard !trusted else { return nil }
        return
            "\(String(printf: "%.2f", errorMs)) ms off \(source ?? "its server") (\(Self.trustedError.milliseconds) ms needed)"
    }

    /// The clock as `chronyc -c -n -m tracking sources sourcestats` reports it (`output`,
    /// and its exit `status`): the error is the system clock's offset still being slewed
    /// away, plus the offset chrony estimates to the selected server, plus two standard
    /// deviations of its samples of it — relative to that server, not to the world (the
    /// hub's own distance to the internet does not count against the room). A path's
    /// asymmetry, which no NTP can see, is not in it. Local text, but read as a stranger's:
    /// every number checked finite before arithmetic.
    public static func chrony(output: String, status: Int32?) -> VenueClock {
        let lines = output.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        guard status == 0 else {
            // nil: chronyc did not run, and the output says why.
            let said = String((output.split(separator: "\n").first ?? "").prefix(120))
            return .unknown(
                status == nil ? said : said.isEmpty ? "chrony does not answer" : "chrony does not answer (\(said))")
        }
        // tracking: 14 fields; sources: 10, beginning with a mode; sourcestats: 8.
        guard let tracking = lines.first(where: { $0.count == 14 }), let systemOffset = seconds(tracking[4]) else {
            return .unknown("chrony's report is not one this box reads")
        }
        guard tracking[13] != "Not synchronised" else { return .unknown("chrony is not synchronised yet") }
        guard let selected = lines.first(where: { $0.count == 10 && $0[1] == "*" }) else {
            return .unknown("chrony follows no server")
        }
        let server = String(selected[2])
        guard let stats = lines.first(where: { $0.count == 8 && $0[0] == selected[2] }),
            let samples = Int(stats[1]), let offset = seconds(stats[6]), let deviation = seconds(stats[7])
        else { return .unknown("chrony has no statistics of \(server)") }
        guard samples >= fewestSamples else {
            return .unknown("chrony has \(samples) samples of \(server) (\(fewestSamples) needed)")
        }
        let error = (abs(systemOffset) + abs(offset) + 2 * abs(deviation)) * 1_000
        return VenueClock(errorMs: error, source: server, problem: nil)
    }

    /// A field in seconds; nil unless finite and under a day.
    private static func seconds(_ field: Substring) -> Double? {
        guard let value = Double(field), value.isFinite, abs(value) < 86_400 else { return nil }
        return value
    }
}
