/// Something the broadcaster signals inside the stream (see docs/stream-events.md).
public enum StreamEvent: Sendable, Equatable, Hashable {
    /// The streamer's microphone went off: mute music should play.
    case streamerMuted
    /// The streamer is back.
    case streamerUnmuted
    /// An ad break: the ad's audio replaces the programme for `durationMs`.
    case adBreak(AdBreak)
    /// The programme's title changed.
    case title(String)

    /// A short machine-readable name (`muted`, `unmuted`, `ad`, `title`).
    public var kind: String {
        switch self {
        case .streamerMuted: "muted"
        case .streamerUnmuted: "unmuted"
        case .adBreak: "ad"
        case .title: "title"
        }
    }
}

/// An ad break's audio and length, and when it began if its tag says.
public struct AdBreak: Sendable, Equatable, Hashable {
    /// Where the ad's audio is fetched from: from a stream's title, an http or https URL
    /// on a host the channel allows (`ClipURL`), or a built-in `demo://` clip.
    public var audioURL: String
    /// How long the programme is replaced, in milliseconds.
    public var durationMs: Int64
    /// When the break began at the source, by the broadcaster's clock (Unix time, seconds;
    /// `[delaybox:ad@START …]`): it names the break wherever its tag comes again, and tells
    /// a box that connects during it how much of it is left.
    public var startedAt: Double?

    /// The lengths a break may have (ms): a second (a jingle) to 15 minutes (the longest
    /// commercial block of a sports broadcast, a half-time's). Outside it the tag is a
    /// mistake or an attack: it would take the programme off the air for hours, or play
    /// a break nobody hears.
    public static let durationRangeMs: ClosedRange<Int64> = 1_000...900_000
    static let durationRangeText = "1 s to 15 min"
    /// When a break may have begun (Unix time, s): 2000 to 2100. A start outside is no
    /// clock's reading; a plausible one is checked against this box's clock where it is used.
    public static let startRange: ClosedRange<Double> = 946_684_800...4_102_444_800

    public init(audioURL: String, durationMs: Int64, startedAt: Double? = nil) {
        self.audioURL = audioURL
        self.durationMs = durationMs
        self.startedAt = startedAt
    }
}

/// An event placed on the engine's timeline.
public struct TimelineEvent: Sendable, Equatable, Hashable {
    public var event: StreamEvent
    /// Timeline position in frames where the event takes effect.
    public var position: Int64

    public init(event: StreamEvent, position: Int64) {
        self.event = event
        self.position = position
    }

    /// Whether this is an ad break that is over at timeline `position` (frames).
    func hasEnded(by position: Int64) -> Bool {
        guard case .adBreak(let ad) = event else { return false }
        return position - self.position >= AudioFormat.frames(milliseconds: ad.durationMs)
    }

    /// Whether this is an ad break that began before timeline `position` and runs past it.
    func runsPast(_ position: Int64) -> Bool {
        guard case .adBreak = event else { return false }
        return self.position < position && !hasEnded(by: position)
    }
}

/// How an event took effect at playout.
public enum EventTransition: String, Sendable, Equatable {
    /// Playout reached it.
    case reached
    /// A delay change towards live jumped over it; its effect is applied.
    case executedByJump
    /// A delay change back jumped before it; its effect is taken back.
    case undoneByJump
    /// A delay change moved playout inside an ad break already in force, or out past its
    /// end: `elapsedFrames` says how far into the break the new place is (its length or
    /// more: over). Also a jump back into a break heard before: it plays from there.
    case movedByJump
}

/// What the programme is at one timeline position: the fold of every event before it.
public struct ProgrammeState: Sendable, Equatable {
    public var streamerMuted = false
    public var title: String?
    /// The ad break in force, if any.
    public var activeAd: ActiveAd?

    public init() {}

    /// An ad break and where playout is inside it.
    public struct ActiveAd: Sendable, Equatable {
        public var ad: AdBreak
        /// Timeline position where the break starts.
        public var startPosition: Int64
        /// Frames of the break already behind the position this state was computed for.
        public var elapsedFrames: Int64
    }

    /// Applies `event`, placed at `position`.
    mutating func apply(_ event: StreamEvent, at position: Int64) {
        switch event {
        case .streamerMuted: streamerMuted = true
        case .streamerUnmuted: streamerMuted = false
        case .title(let text): title = text
        case .adBreak(let ad): activeAd = ActiveAd(ad: ad, startPosition: position, elapsedFrames: 0)
        }
    }

    /// This state seen from `position`: an ad break that has run out is no longer active.
    func seen(from position: Int64) -> ProgrammeState {
        var state = self
        if let ad = activeAd {
            let elapsed = position - ad.startPosition
            if elapsed >= AudioFormat.frames(milliseconds: ad.ad.durationMs) {
                state.activeAd = nil
            } else {
                state.activeAd?.elapsedFrames = elapsed
            }
        }
        return state
    }
}
