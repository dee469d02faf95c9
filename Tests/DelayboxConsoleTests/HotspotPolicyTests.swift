import DelayboxNetwork
import DelayboxUnits
import Testing

/// Issue 60: when the box opens its own hotspot — in virtual time.
@Suite(.timeLimit(.minutes(10))) struct HotspotPolicyTests {
    func at(_ seconds: Int64) -> Instant { Instant.zero + .seconds(seconds) }

    @Test func itOpensAfterTheWaitWithoutANetworkAndNeverWhileOneWorks() {
        var policy = HotspotPolicy(after: .minutes(3))
        #expect(policy.step(networkWorks: false, now: at(0)) == nil)
        #expect(policy.step(networkWorks: false, now: at(179)) == nil)
        // Back for a moment: the wait starts again.
        #expect(policy.step(networkWorks: true, now: at(179)) == nil)
        #expect(policy.step(networkWorks: false, now: at(180)) == nil)
        #expect(policy.step(networkWorks: false, now: at(359)) == nil)
        #expect(policy.step(networkWorks: false, now: at(360)) == .open(reason: "no network for 3 min"))
        #expect(policy.isOpen)
        // A network that works closes it.
        #expect(policy.step(networkWorks: true, now: at(400)) == .close(reason: "a network works"))
        #expect(!policy.isOpen)
        // A box on a network never opens it, however long.
        var connected = HotspotPolicy(after: .seconds(10))
        for second in stride(from: Int64(0), through: 3_600, by: 5) {
            #expect(connected.step(networkWorks: true, now: at(second)) == nil)
        }
    }

    @Test func aHandOpensItAtOnceUnlessANetworkWorks() {
        var policy = HotspotPolicy(after: nil)
        #expect(policy.step(networkWorks: false, now: at(0)) == nil)
        #expect(policy.step(networkWorks: false, now: at(86_400)) == nil, "never by itself")
        policy.askToOpen()
        #expect(policy.step(networkWorks: false, now: at(86_401)) == .open(reason: "asked at the box"))
        var online = HotspotPolicy(after: nil)
        online.askToOpen()
        #expect(online.step(networkWorks: true, now: at(0)) == nil)
        #expect(online.step(networkWorks: false, now: at(5)) == nil, "the ask is spent on a box with a network")
    }

    /// Unused for ten minutes it closes so that NetworkManager can retry the networks it
    /// knows, and opens again a wait later; a phone's use keeps it open.
    @Test func anUnusedHotspotClosesToRetryTheKnownNetworks() {
        var policy = HotspotPolicy(after: .seconds(60))
        _ = policy.step(networkWorks: false, now: at(0))
        #expect(policy.step(networkWorks: false, now: at(60)) == .open(reason: "no network for 60 s"))
        policy.used(now: at(500))
        #expect(policy.step(networkWorks: false, now: at(1_099)) == nil, "used at 500 s: open until 1100 s")
        #expect(policy.step(networkWorks: false, now: at(1_100))?.isClose == true)
        #expect(policy.step(networkWorks: false, now: at(1_159)) == nil)
        #expect(policy.step(networkWorks: false, now: at(1_160)) == .open(reason: "no network for 60 s"))
        // Closed by hand (or to join a network): the wait starts again.
        policy.closed(now: at(1_200))
        #expect(policy.step(networkWorks: false, now: at(1_259)) == nil)
        #expect(policy.step(networkWorks: false, now: at(1_260)) != nil)
    }
}

extension HotspotPolicy.Step {
    var isClose: Bool { if case .close = self { true } else { false } }
}
