import DelayboxMQTT
import DelayboxUnits
import Testing

/// Issue 69: a box's part in an update in stages is a value the MQTT door keeps: the
/// reports heard, the wait for the canary, this box's turn, its release published.
@Suite(.timeLimit(.minutes(10))) struct StagedRolloutTests {
    static let topic = "delaybox/group/pub/release/screen1"

    func report(_ version: String, _ release: String) -> (topic: String, payload: [UInt8]) {
        (Self.topic, Array(MemberRelease(box: "screen1", version: version, release: release).json.utf8))
    }

    func topic(of canary: String) -> String? { "delaybox/group/pub/release/\(canary)" }

    /// A canary no report of which was heard is refused, and nothing changes: its name could
    /// come from anyone.
    @Test func aCanaryNeverHeardIsNoCanary() {
        var rollout = StagedRollout()
        rollout.becomeCanary(atOnce: true)
        let stage = rollout.wait(for: "screen1", reportsOn: Self.topic, atOnce: false, now: .zero)
        #expect(stage == nil)
        #expect(rollout.isCanary && rollout.atOnce && rollout.waiting == nil)
    }

    /// The canary's report from before the command is its baseline; its new release played
    /// is the verdict the wait follows.
    @Test func theCanarysVerdictReachesTheWait() throws {
        var rollout = StagedRollout()
        let unwaited = rollout.follow([report("1.2", "1.2 playing")], canaryTopic: topic, now: .zero)
        #expect(unwaited == nil)
        let waiting = rollout.wait(for: "screen1", reportsOn: Self.topic, atOnce: true, now: .zero)
        let stage = try #require(waiting)
        #expect(stage.canary == "screen1" && !rollout.isCanary && rollout.atOnce)
        let moved = rollout.follow(
            [report("1.3", "1.3 playing")], canaryTopic: topic, now: Instant.zero + TimeAmount.minutes(4))
        #expect(moved?.before == .waiting("screen1 says '1.2 playing' (from before the update)"))
        #expect(moved?.after == .go(version: "1.3"))
        rollout.becomeCanary(atOnce: false)
        #expect(rollout.waiting == nil && rollout.isCanary)
    }

    /// At most 256 report topics are kept; one kept is still heard.
    @Test func atMost256ReportTopicsAreKept() {
        var rollout = StagedRollout()
        let many: [(topic: String, payload: [UInt8])] = (0..<300).map {
            (index: Int) -> (topic: String, payload: [UInt8]) in
            let release = MemberRelease(box: "box\(index)", version: "1", release: "1")
            return (topic(of: "box\(index)") ?? "", Array(release.json.utf8))
        }
        _ = rollout.follow(many, canaryTopic: topic, now: .zero)
        let unknown = rollout.wait(for: "box299", reportsOn: topic(of: "box299"), atOnce: false, now: .zero)
        let known = rollout.wait(for: "box0", reportsOn: topic(of: "box0"), atOnce: false, now: .zero)
        #expect(unknown == nil)
        #expect(known != nil)
    }

    /// This box's release is published when it changed, and again after a connection.
    @Test func theReleaseIsPublishedWhenItIsNews() {
        var rollout = StagedRollout()
        let mine = MemberRelease(box: "bar", version: "1.3", release: "1.3 playing")
        let first = rollout.publishes(mine), again = rollout.publishes(mine)
        rollout.connected()
        let reconnected = rollout.publishes(mine)
        let newer = rollout.publishes(MemberRelease(box: "bar", version: "1.4", release: "1.4 playing"))
        #expect(first && !again && reconnected && newer)
    }
}
