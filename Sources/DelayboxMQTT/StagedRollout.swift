import DelayboxUnits

/// A box's part in a venue's update in stages (`update --canary BOX`), as its MQTT door keeps
/// it: the group's release reports heard (so that a canary named later is known by what it
/// said before the command), this box's wait for the canary's verdict (`StagedUpdate`) or
/// its own turn as the canary, and the release it last published for the others.
public struct StagedRollout: Sendable {
    /// The most release reports kept, by topic: a broker's stranger may publish many.
    public static let largestHeard = 256
    /// The canary this box waits for; nil when none.
    public private(set) var waiting: StagedUpdate?
    /// The manager said `--now`: the new release starts at once, not in the window.
    public private(set) var atOnce = false
    /// This box is the canary: its `update` follows its own release line.
    public private(set) var isCanary = false
    /// The release last published on the group's topic; nil: none since the connection.
    private var published: MemberRelease?
    /// The last report heard on each release topic of the group.
    private var heard: [String: MemberRelease] = [:]

    public init() {}

    /// A connection (again): this box's release is published anew.
    public mutating func connected() { published = nil }

    /// This box is the canary: it updates first, its wait for another ends.
    public mutating func becomeCanary(atOnce: Bool) { (waiting, isCanary, self.atOnce) = (nil, true, atOnce) }

    /// Waits for the box whose reports come on `topic` (`canary`'s), from `now`; nil — and
    /// nothing changes — when no report of it was heard: a canary named out of nowhere (and
    /// its reports forged by any publisher) would update every box at once.
    public mutating func wait(for canary: String, reportsOn topic: String?, atOnce: Bool, now: Instant)
        -> StagedUpdate?
    {
        guard let baseline = topic.flatMap({ heard[$0] }) else { return nil }
        let stage = StagedUpdate(canary: canary, now: now, baseline: baseline)
        (waiting, isCanary, self.atOnce) = (stage, false, atOnce)
        return stage
    }

    /// The group's release reports that came, and the time passing: the reports kept, and the
    /// canary's (on `canaryTopic`) heard by the wait. Returns the wait's outcome before and
    /// after; nil when this box waits for no canary.
    public mutating func follow(
        _ releases: [(topic: String, payload: [UInt8])], canaryTopic: (String) -> String?, now: Instant
    ) -> (before: StagedUpdate.Outcome, after: StagedUpdate.Outcome)? {
        for release in releases {
            guard let report = MemberRelease.read(release.payload),
                heard[release.topic] != nil || heard.count < Self.largestHeard
            else { continue }
            heard[release.topic] = report
        }
        guard var stage = waiting else { return nil }
        let before = stage.outcome
        let topic = canaryTopic(stage.canary)
        for release in releases where release.topic == topic {
            if let report = MemberRelease.read(release.payload) { _ = stage.heard(report, now: now) }
        }
        _ = stage.tick(now: now)
        waiting = stage
        return (before, stage.outcome)
    }

    /// Whether `mine` is news to publish (it changed, or the connection is new); it is
    /// taken for published.
    public mutating func publishes(_ mine: MemberRelease) -> Bool {
        defer { published = mine }
        return published != mine
    }
}
