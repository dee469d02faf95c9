import DelayboxConfig
import DelayboxEngine
import Testing

@testable import DelayboxAnswers

/// Issue 57: an upgrade never cuts a programme. The gate's verdict in virtual time, and
/// the owner's window as the board file gives it.
@Suite(.timeLimit(.minutes(10))) struct UpdateRestartGateTests {
    static func at(_ seconds: Int64) -> Instant { .zero.advanced(byMilliseconds: seconds * 1_000) }

    @Test func aPlayingBoxWaitsAndAQuietOneIsRestartedAfterTenSeconds() {
        var gate = UpdateRestartGate()
        let window = UpdateWindow.standard, noon = 12 * 60
        gate.observe(state: .playing, held: .zero, now: Self.at(0))
        #expect(gate.verdict(state: .playing, now: Self.at(0), window: window, minuteOfDay: noon).hasPrefix("waits"))
        gate.observe(state: .paused, held: .seconds(30), now: Self.at(5))
        #expect(gate.verdict(state: .paused, now: Self.at(14), window: window, minuteOfDay: noon).hasPrefix("waits"))
        #expect(gate.verdict(state: .paused, now: Self.at(15), window: window, minuteOfDay: noon) == "now: paused")
        // Playing again closes it; a reconnect that the held audio bridges is playing.
        gate.observe(state: .playing, held: .zero, now: Self.at(16))
        gate.observe(state: .reconnecting, held: .seconds(4), now: Self.at(17))
        #expect(
            gate.verdict(state: .reconnecting, now: Self.at(60), window: window, minuteOfDay: noon)
                == "waits: reconnecting (the update window: 04:00-05:00)")
        // Off the air: the held audio has played out.
        gate.observe(state: .reconnecting, held: .zero, now: Self.at(61))
        #expect(
            gate.verdict(state: .reconnecting, now: Self.at(71), window: window, minuteOfDay: noon)
                == "now: reconnecting")
        // A box building its delay is silent: quiet too.
        var building = UpdateRestartGate()
        building.observe(state: .buffering, held: .zero, now: Self.at(0))
        #expect(
            building.verdict(state: .buffering, now: Self.at(10), window: .none, minuteOfDay: nil) == "now: buffering")
    }

    @Test func theWindowLetsAPlayingBoxRestartOnlyByABelievedClock() {
        var gate = UpdateRestartGate()
        gate.observe(state: .playing, held: .zero, now: Self.at(0))
        let window = UpdateWindow(parsing: "23:30-01:00")!
        #expect(
            gate.verdict(state: .playing, now: Self.at(1), window: window, minuteOfDay: 23 * 60 + 45)
                == "now: in the update window 23:30-01:00")
        #expect(gate.verdict(state: .playing, now: Self.at(1), window: window, minuteOfDay: 30).hasPrefix("now"))
        #expect(gate.verdict(state: .playing, now: Self.at(1), window: window, minuteOfDay: 60).hasPrefix("waits"))
        #expect(
            gate.verdict(state: .playing, now: Self.at(1), window: window, minuteOfDay: nil).hasPrefix("waits"),
            "no believed clock")
        #expect(gate.verdict(state: .playing, now: Self.at(1), window: .none, minuteOfDay: 0).hasPrefix("waits"))
    }

    @Test func aWindowIsHoursOfTheDayOrNone() {
        #expect(UpdateWindow(parsing: "04:00-05:00") == .standard)
        #expect(UpdateWindow(parsing: " 4:00 - 5:00 ")?.description == "04:00-05:00")
        #expect(UpdateWindow(parsing: "22:00-24:00")?.contains(minuteOfDay: 23 * 60 + 59) == true)
        #expect(UpdateWindow(parsing: "NONE") == UpdateWindow.none)
        for bad in [
            "", "04:00", "04:00-04:00", "25:00-01:00", "04:60-05:00", "4-5", "04:00-05:00-06:00", "０4:00-05:00",
            "-1:00-02:00",
        ] {
            #expect(UpdateWindow(parsing: bad) == nil, "\(bad)")
        }
    }
}
