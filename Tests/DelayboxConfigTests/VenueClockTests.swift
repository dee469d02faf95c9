import DelayboxMQTT
import Testing

/// Issue 70: a box takes part in its room's alignment only while chrony says its wall clock
/// is within a millisecond of the server it follows. The reports are chronyc's own
/// (`chronyc -c -n -m tracking sources sourcestats`, chrony 4.3, a client of a chronyd on
/// loopback), with the figures varied.
@Suite(.timeLimit(.minutes(10))) struct VenueClockTests {
    /// A real report, with the system clock's offset, the server's estimated offset and its
    /// samples' standard deviation (s), its sample count and its leap status replaced.
    static func report(
        system: String = "-0.000001188", offset: String = "-0.000000000", deviation: String = "0.000000121",
        samples: String = "64", leap: String = "Normal", state: String = "*"
    ) -> String {
        """
        7F000001,127.0.0.1,2,1796053394.529099470,\(system),0.000000001,0.000000008,-0.000,-0.000,0.042,0.000005585,0.000000653,0.1,\(leap)
        ^,\(state),127.0.0.1,1,-4,377,1,0.000000258,0.000000259,0.000003065
        127.0.0.1,\(samples),33,4,-0.000,0.041,\(offset),\(deviation)

        """
    }

    @Test func aClockChronyKeepsToMicrosecondsTakesPart() throws {
        let clock = VenueClock.chrony(output: Self.report(), status: 0)
        let error = try #require(clock.errorMs)
        // |system| + |offset| + 2 deviations: 1.188 + 0 + 0.242 µs.
        #expect(abs(error - 0.001430) < 1e-9)
        #expect(clock.trusted && clock.whyNot == nil)
        #expect(clock.summary == "within 0.00 ms of 127.0.0.1")
    }

    @Test func eachPartOfTheErrorCountsAgainstTheMillisecond() {
        for (report, ms) in [
            (Self.report(system: "0.000900", offset: "-0.000150"), 1.05),
            (Self.report(system: "0", offset: "0.0007", deviation: "-0.0001"), 0.9),
            (Self.report(deviation: "0.0006"), 1.2),
            (Self.report(system: "-0.080"), 80),
        ] {
            let clock = VenueClock.chrony(output: report, status: 0)
            #expect(clock.errorMs.map { abs($0 - ms) < 0.01 } == true, "\(report)")
            #expect(clock.trusted == (ms < 1), "\(ms) ms")
        }
        let off = VenueClock.chrony(output: Self.report(system: "-0.080"), status: 0)
        #expect(off.summary == "not aligning: 80.00 ms off 127.0.0.1 (1 ms needed)")
    }

    @Test func chronyNotKnowingIsSaidAndNeverTrusted() {
        let cases: [(String, Int32?, String)] = [
            ("506 Cannot talk to daemon\n", 1, "chrony does not answer (506 Cannot talk to daemon)"),
            ("", 1, "chrony does not answer"),
            ("chrony is not installed", nil, "chrony is not installed"),
            (Self.report(leap: "Not synchronised"), 0, "chrony is not synchronised yet"),
            (Self.report(state: "?"), 0, "chrony follows no server"),
            (Self.report(samples: "3"), 0, "chrony has 3 samples of 127.0.0.1 (4 needed)"),
            (Self.report(system: "nan"), 0, "chrony's report is not one this box reads"),
            (Self.report(offset: "inf"), 0, "chrony has no statistics of 127.0.0.1"),
            (Self.report(deviation: "1e300"), 0, "chrony has no statistics of 127.0.0.1"),
            ("garbage,,,\n\u{0}", 0, "chrony's report is not one this box reads"),
        ]
        for (output, status, reason) in cases {
            let clock = VenueClock.chrony(output: output, status: status)
            #expect(!clock.trusted && clock.errorMs == nil)
            #expect(clock.whyNot == reason)
            #expect(clock.summary == "not aligning: \(reason)")
        }
    }

    /// The room's own clock is said as such; a server that happens to be called "own" is a
    /// server followed.
    @Test func theRoomsOwnClockIsTrusted() {
        #expect(VenueClock.own.trusted && VenueClock.own.summary == "the room's own")
        let named = VenueClock.chrony(output: Self.report().replacing("127.0.0.1", with: "own"), status: 0)
        #expect(named.summary.hasPrefix("within ") && named.summary.hasSuffix(" ms of own"), "\(named.summary)")
    }

    /// A figure says whether its box is settled in the room; an older release's says nothing
    /// and is taken as settled (`VenueAlignment`).
    @Test func aFigureSaysWhetherItsBoxIsSettled() throws {
        let new = VenueFigure(box: "b", fingerprint: 0x9c1f, liveUnixNs: 5, settled: false)
        #expect(VenueFigure.read(Array(new.json.utf8))?.settled == false)
        let old = try #require(VenueFigure.read(Array(#"{"box":"a","fingerprint":"9c1f","live_unix_ns":5}"#.utf8)))
        #expect(old.settled == nil)
    }
}
