import DelayboxUnits

/// When the box opens its own Wi-Fi hotspot (issue 60): a box that has had no network for
/// `after` (a new router, a new password) opens one, named for it, so that a phone can
/// reach its page and choose the network; a hand on the box (a long press, a remote's key)
/// opens it at once. Never while a network works: a box that can be reached keeps its
/// radio on that network. An open hotspot that nobody uses for `idleClose` closes again so
/// that NetworkManager can retry the networks it knows (the router may only have been
/// rebooting) — and opens again `after` later if none came back.
///
/// Pure: time from the caller (`Instant`s of one monotonic clock). The keeper carries out
/// what `step` returns (docs/web.md, "When the box is lost").
public struct HotspotPolicy: Sendable {
    /// What the keeper does.
    public enum Step: Sendable, Equatable {
        case open(reason: String)
        case close(reason: String)
    }

    /// How long without a network before the hotspot opens by itself; nil: only by hand.
    public let after: TimeAmount?
    /// How long an open hotspot stays open with nobody asking anything of it.
    public static let idleClose = TimeAmount.minutes(10)

    public private(set) var isOpen = false
    /// Since when no network has worked (nil: one works, or none was looked at yet).
    private var offlineSince: Instant?
    /// The hotspot's last use: its opening, or a phone asking the box's Wi-Fi anything.
    private var lastUse: Instant?
    /// Asked by hand and not yet carried out.
    private var openAsked = false

    public init(after: TimeAmount?) { self.after = after }

    /// What to do at `now`, given whether a network other than the hotspot works.
    public mutating func step(networkWorks: Bool, now: Instant) -> Step? {
        if networkWorks {
            offlineSince = nil
            openAsked = false
            guard isOpen else { return nil }
            isOpen = false
            return .close(reason: "a network works")
        }
        let since = offlineSince ?? now
        offlineSince = since
        if isOpen {
            guard let lastUse, now - lastUse >= Self.idleClose else { return nil }
            isOpen = false
            // NetworkManager retries its networks from here; the wait starts again.
            offlineSince = now
            return .close(
                reason: "nobody used it for \(Self.idleClose.wholeSeconds / 60) min: trying the known networks")
        }
        if openAsked {
            return opened(now: now, reason: "asked at the box")
        }
        if let after, now - since >= after {
            return opened(now: now, reason: "no network for \(Self.describe(now - since))")
        }
        return nil
    }

    /// A hand on the box asked for the hotspot: it opens at the next step unless a network works.
    public mutating func askToOpen() { openAsked = true }

    /// A phone used the open hotspot (it asked for the networks, or to join one).
    public mutating func used(now: Instant) { if isOpen { lastUse = now } }

    /// The hotspot was closed by hand, or to join a network: the wait for a network starts again.
    public mutating func closed(now: Instant) {
        isOpen = false
        openAsked = false
        offlineSince = now
    }

    /// The hotspot is up already (the box restarted while it was open): it is this one's.
    public mutating func foundOpen(now: Instant) {
        guard !isOpen else { return }
        isOpen = true
        openAsked = false
        lastUse = now
    }

    /// NetworkManager did not open it: the next try after another `after`.
    public mutating func failedToOpen(now: Instant) { closed(now: now) }

    private mutating func opened(now: Instant, reason: String) -> Step {
        isOpen = true
        openAsked = false
        lastUse = now
        return .open(reason: reason)
    }

    /// The 2.4 GHz channel the hotspot opens on: of 1, 6 and 11 — allowed in every country and
    /// apart enough not to overlap — the one with the fewest `networks` near it (a tie: 6, 1,
    /// 11). Left to NetworkManager it may take 12 or 13, where a radio that does not know its
    /// country may not send first: the hotspot never comes up (seen on the virtual board).
    public static func channel(among networks: [WiFiNetwork]) -> Int {
        let candidates = [6, 1, 11]
        func crowd(_ channel: Int) -> Int { networks.filter { abs($0.channel - channel) < 5 }.count }
        return candidates.min { crowd($0) < crowd($1) } ?? 6
    }

    /// `95 s`, `3 min`.
    static func describe(_ amount: TimeAmount) -> String {
        let seconds = amount.wholeSeconds
        return seconds < 120 ? "\(seconds) s" : "\(seconds / 60) min"
    }
}
