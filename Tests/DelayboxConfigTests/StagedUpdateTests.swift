import DelayboxMQTT
import DelayboxUnits
import Testing

/// A venue's update in stages: the others wait for the canary's verdict, never take the
/// broker's old retained report for one, and stay where they are when it goes wrong.
@Suite(.timeLimit(.minutes(10))) struct StagedUpdateTests {
    static let minute = TimeAmount.minutes(1)

    func report(_ version: String, _ release: String) -> MemberRelease {
        MemberRelease(box: "screen1", version: version, release: release)
    }

    @Test func theOthersGoOnceTheCanaryPlaysANewReleaseAndTakeItsVersion() {
        var stage = StagedUpdate(canary: "screen1", now: .zero)
        #expect(
            stage.heard(report("1.2", "1.2 playing"), now: Instant(nanoseconds: 1))
                == .waiting("screen1 says '1.2 playing' (from before the update)"),
            "the retained report from before the command is no verdict")
        #expect(
            stage.heard(report("1.2", "updating: installing 1.3 over 1.2"), now: Instant.zero + 2 * Self.minute)
                == .waiting("screen1 says 'updating: installing 1.3 over 1.2'"))
        #expect(
            stage.heard(report("1.3", "checking 1.3"), now: Instant.zero + 3 * Self.minute)
                == .waiting("screen1 says 'checking 1.3'"))
        #expect(stage.heard(report("1.3", "1.3 playing"), now: Instant.zero + 4 * Self.minute) == .go(version: "1.3"))
        #expect(stage.summary == "updating to 1.3, which canary screen1 plays")
        #expect(
            stage.heard(report("1.3", "rolled back: late"), now: Instant.zero + 5 * Self.minute) == .go(version: "1.3"),
            "a verdict is final")
    }

    @Test func aCanaryAlreadyUpToDateLetsTheOthersCatchUpToItsVersion() {
        var stage = StagedUpdate(canary: "screen1", now: .zero)
        _ = stage.heard(report("1.3", "1.3 playing"), now: .zero)
        #expect(stage.heard(report("1.3", "up to date: 1.3"), now: Instant.zero + Self.minute) == .go(version: "1.3"))
    }

    @Test func aCanaryThatRolledBackOrFailedHoldsTheOthers() {
        for line in [
            "rolled back: 1.3 failed its check, 1.2 plays again (41 s)", "update failed: apt-get update: E: no network",
            "1.3 did not play (restarted by systemd, or not playing within 60 s), and there is no earlier release to return to: journalctl -u delaybox",
        ] {
            var stage = StagedUpdate(canary: "screen1", now: .zero)
            _ = stage.heard(report("1.2", "1.2 playing"), now: .zero)
            guard case .held(let reason) = stage.heard(report("1.2", line), now: Instant.zero + Self.minute) else {
                Issue.record("'\(line)' let the others update")
                continue
            }
            #expect(reason == "screen1's update went wrong: \(line)")
            #expect(
                stage.heard(report("1.4", "1.4 playing"), now: Instant.zero + 2 * Self.minute) == .held(reason),
                "a held box stays held until asked again")
        }
    }

    /// Any client that may publish on the group's topics can speak for the canary: a
    /// "version" apt would not take (a shell's `;`, a space, an option) holds the others.
    @Test func aCanaryVersionThatIsNoPackageVersionHoldsTheOthers() {
        for version in [
            "1;reboot", "1.3 --allow-downgrades", "-1.3", "", "1.3\n", String(repeating: "1", count: 65), "1.３",
        ] {
            var stage = StagedUpdate(canary: "screen1", now: .zero)
            _ = stage.heard(report("1.2", "1.2 playing"), now: .zero)
            guard
                case .held(let reason) = stage.heard(
                    report(version, "\(version) playing"), now: Instant.zero + Self.minute)
            else {
                Issue.record("the version '\(version)' was followed")
                continue
            }
            #expect(reason.hasSuffix("which is not a package version"), "\(reason)")
        }
        var stage = StagedUpdate(canary: "screen1", now: .zero)
        _ = stage.heard(report("1.2", "1.2 playing"), now: .zero)
        #expect(
            stage.heard(report("1:1.3-1~deb13+b1", "1:1.3-1~deb13+b1 playing"), now: Instant.zero + Self.minute)
                == .go(version: "1:1.3-1~deb13+b1"))
    }

    /// The canary's report heard before the command is the baseline: a canary that fails
    /// before the broker would have sent that report again still holds the others (CI6
    /// here: the verdict came first and was taken for the old news).
    @Test func aBaselineHeardBeforeTheCommandMakesTheFirstReportAVerdict() {
        var stage = StagedUpdate(canary: "screen1", now: .zero, baseline: report("1.2", "1.2 playing"))
        #expect(stage.summary == "waiting for canary screen1: screen1 says '1.2 playing' (from before the update)")
        #expect(
            stage.heard(
                report("1.2", "rolled back: 1.3 failed its check, 1.2 plays again (41 s)"), now: Instant(nanoseconds: 1)
            )
                == .held(
                    "screen1's update went wrong: rolled back: 1.3 failed its check, 1.2 plays again (41 s)"))
        var same = StagedUpdate(canary: "screen1", now: .zero, baseline: report("1.2", "1.2 playing"))
        #expect(
            same.heard(report("1.2", "1.2 playing"), now: Instant(nanoseconds: 1))
                == .waiting("screen1 says '1.2 playing' (from before the update)"),
            "the same report again (the broker's retained one, sent again) is no news")
    }

    @Test func aSilentOrSlowCanaryHoldsTheOthersAfterItsPatience() {
        var silent = StagedUpdate(canary: "screen9", now: Instant(nanoseconds: 5))
        #expect(
            silent.tick(now: Instant(nanoseconds: 5) + StagedUpdate.patience) == .waiting("no word from screen9 yet"))
        #expect(
            silent.tick(now: Instant(nanoseconds: 6) + StagedUpdate.patience)
                == .held("screen9 did not play a new release within 30 min (last: no word from screen9 yet)"))
        var slow = StagedUpdate(canary: "screen1", now: .zero)
        _ = slow.heard(report("1.2", "1.2 playing"), now: .zero)
        _ = slow.heard(report("1.2", "checking 1.3"), now: Instant.zero + Self.minute)
        guard case .held = slow.heard(report("1.2", "checking 1.3 again"), now: Instant.zero + 31 * Self.minute) else {
            Issue.record("a canary checking for 31 min let the others go")
            return
        }
    }

    /// A venue with boxes on Debian 12 and 13: each installs the canary's commit as its own
    /// release builds it.
    @Test func theCanarysReleaseIsTakenForThisBoxsDebian() {
        let canary = "0.1.0+git20261125.221500.5ae9f52~deb13"
        #expect(
            StagedUpdate.release(canary, forBoxRunning: "0.1.0+git20261120.101010.1234567~deb12")
                == "0.1.0+git20261125.221500.5ae9f52~deb12")
        #expect(StagedUpdate.release(canary, forBoxRunning: "0.1.0+git20261120.101010.1234567~deb13") == canary)
        #expect(StagedUpdate.release("0.2.0", forBoxRunning: "0.1.0~deb12") == "0.2.0", "no release in it: as it is")
    }

    @Test func aReportIsReadFromItsJSONAndNothingElse() {
        let sent = MemberRelease(box: "screen1", version: "1.3-1~deb13", release: "1.3-1~deb13 playing")
        #expect(MemberRelease.read(Array(sent.json.utf8)) == sent)
        #expect(MemberRelease.read(Array("1.3 playing".utf8)) == nil)
        #expect(
            MemberRelease.read(
                Array(
                    ("{\"box\":\"a\",\"version\":\"1\",\"release\":\"" + String(repeating: "x", count: 2_000) + "\"}")
                        .utf8)) == nil)
    }
}
