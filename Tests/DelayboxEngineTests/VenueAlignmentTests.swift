import DelayboxTestSupport
import Testing

@testable import DelayboxEngine

/// Issue 58, a room's boxes as one: a run of the stream named alike by every box that holds
/// it, when each takes it to have been live, and the room's median that each box moves to.
@Suite(.timeLimit(.minutes(10))) struct VenueAlignmentTests {
    static func at(_ milliseconds: Int64) -> Instant { .zero.advanced(byMilliseconds: milliseconds) }

    /// Two boxes on one stream name the same run and take it to have been live at the same
    /// moment; moved 10 ms, the second takes it 10 ms earlier and plays 10 ms earlier.
    @Test func aRunIsNamedByContentAndAMovedLinePlaysEarlier() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(3_000)
        let first = try EngineRig(configuration: configuration), second = try EngineRig(configuration: configuration)
        first.run(milliseconds: 10_000)
        second.run(milliseconds: 10_000)
        let mark = try #require(first.engine.venueMark(), "a settled placement gives a mark")
        #expect(second.engine.liveTime(ofVenueMark: mark.fingerprint) == mark.liveAt)
        #expect(second.engine.liveTime(ofVenueMark: mark.fingerprint &+ 1) == nil, "a run it does not hold")
        second.engine.moveLive(byFrames: 480)
        #expect(second.engine.liveTime(ofVenueMark: mark.fingerprint) == mark.liveAt.advanced(byFrames: -480))
        first.run(milliseconds: 20_000)
        second.run(milliseconds: 20_000)
        let end = Int(first.output.frameCount) - 960
        let heardFirst = try #require(first.heardDelayMs(atOutput: end))
        let heardSecond = try #require(second.heardDelayMs(atOutput: end))
        #expect(abs(heardFirst - heardSecond - 10) < 0.1, "\(heardFirst) ms and \(heardSecond) ms")
        #expect(second.engine.status(at: second.now).statistics.venueShiftFrames == 480)
    }

    /// An encoder's digital silence repeats the same packet: no run of it is unique, so
    /// none is named (it could be any of them).
    @Test func silenceNamesNothing() throws {
        let rig = try EngineRig(configuration: EngineConfiguration())
        rig.feed.silentPackets = 0..<1_000_000
        rig.run(milliseconds: 10_000)
        #expect(rig.engine.venueMark() == nil)
    }

    @Test func twoBoxesMeetHalfwayAndMoreFollowTheMedian() {
        var room = VenueAlignment()
        #expect(room.move(now: Self.at(0)) == 0, "alone: nothing to move to")
        room.heard(from: "bar", laterFrames: 960, at: Self.at(0))
        #expect(room.move(now: Self.at(1)) == 480, "halfway to the one other box")
        #expect(room.move(now: Self.at(2)) == 0, "the figures were spent on that move")
        for (peer, later) in [("a", 480), ("b", 520), ("c", -30_000), ("d", 14_000)] {
            room.heard(from: peer, laterFrames: Int64(later), at: Self.at(3))
        }
        // c is beyond any room's spread (ignored); the median of 0, 480, 520 and 14000.
        #expect(room.peers == 3)
        #expect(room.move(now: Self.at(4)) == 500)
        room.heard(from: "a", laterFrames: 40, at: Self.at(5))
        #expect(room.move(now: Self.at(6)) == 0, "half of 0.8 ms: left alone")
        room.heard(from: "a", laterFrames: -4_800, at: Self.at(7))
        #expect(
            room.move(now: Self.at(7 + VenueAlignment.forgetAfter.milliseconds)) == 0, "a figure that old is forgotten")
        #expect(room.shiftFrames == 980)
    }

    /// Issue 67: a room playing as one holds when a box joins — the newcomer moves all the way
    /// to it (the first box jumped ~45 ms to meet a second halfway) — and boxes that start
    /// together, none settled, still meet.
    @Test func anEstablishedRoomHoldsAndANewcomerMovesToIt() {
        var settledBox = VenueAlignment(), newcomer = VenueAlignment()
        // The newcomer takes the same audio live 2,160 frames (45 ms) later than the room.
        settledBox.heard(from: "new", laterFrames: -2_160, settled: false, at: Self.at(0))
        #expect(settledBox.move(now: Self.at(1), settled: true) == 0, "the room holds for a newcomer")
        newcomer.heard(from: "room1", laterFrames: 2_160, settled: true, at: Self.at(0))
        newcomer.heard(from: "room2", laterFrames: 2_200, settled: true, at: Self.at(0))
        newcomer.heard(from: "other-new", laterFrames: -9_000, settled: false, at: Self.at(0))
        #expect(
            newcomer.move(now: Self.at(1), settled: false) == 2_180,
            "all the way to the settled boxes' median, itself and other newcomers not counted")
        // Settled boxes among themselves meet as before; so do newcomers with nobody settled.
        settledBox.heard(from: "room2", laterFrames: 960, settled: true, at: Self.at(2))
        #expect(settledBox.move(now: Self.at(3), settled: true) == 480)
        var together = VenueAlignment()
        together.heard(from: "b", laterFrames: 960, settled: false, at: Self.at(0))
        #expect(together.move(now: Self.at(1), settled: false) == 480)
    }

    @Test func theRoomMovesABoxAtMost300MsInAllAndHearsAtMost32Peers() {
        var room = VenueAlignment()
        for round in 0..<10 {
            room.heard(from: "far", laterFrames: 14_400, at: Self.at(Int64(round)))
            room.heard(from: "farther", laterFrames: 14_400, at: Self.at(Int64(round)))
            _ = room.move(now: Self.at(Int64(round)))
        }
        #expect(room.shiftFrames == VenueAlignment.maximumShiftFrames)
        for peer in 0..<100 { room.heard(from: "peer\(peer)", laterFrames: 0, at: Self.at(20)) }
        #expect(room.peers == VenueAlignment.maximumPeers)
        room.heard(from: "minimum", laterFrames: .min, at: Self.at(20))
        room.heard(from: "maximum", laterFrames: .max, at: Self.at(20))
        #expect(room.peers == VenueAlignment.maximumPeers)
    }
}
