import DelayboxEngine
import DelayboxMQTT
import DelayboxTestSupport
import Testing

/// Issues 58 and 70: a box of a venue group as the playout drives it (`RoomSync`), two boxes
/// on one stream in virtual time, their wall clocks one clock.
@Suite(.timeLimit(.minutes(10))) struct RoomSyncTests {
    static let unixStart = 1_780_000_000.0

    static func rig() throws -> EngineRig {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(3_000)
        return try EngineRig(configuration: configuration)
    }

    /// One look by `room` at `rig`'s time, its clock `clock`.
    static func look(
        _ room: inout RoomSync, _ rig: EngineRig, member: String?, figures: [VenueFigure] = [],
        clock: VenueClock = .own
    ) -> RoomSync.Outcome {
        room.look(
            member: member, figures: figures, clock: { clock }, unixNow: { unixStart + rig.now.seconds },
            engine: rig.engine, now: rig.now)
    }

    /// A box in no group asks nothing of the clock, says nothing, moves nothing.
    @Test func aBoxInNoGroupDoesNothing() throws {
        let box = try Self.rig()
        box.run(milliseconds: 10_000)
        var room = RoomSync()
        var asked = false
        let outcome = room.look(
            member: nil, figures: [],
            clock: {
                asked = true; return .own
            },
            unixNow: {
                asked = true; return 0
            },
            engine: box.engine, now: box.now)
        #expect(!asked && outcome.isEmpty)
    }

    /// A member says its figure when it begins and every 5 s; the log hears that it begins once.
    @Test func aMemberSaysItsFigureEveryFiveSeconds() throws {
        let box = try Self.rig()
        box.run(milliseconds: 10_000)
        var room = RoomSync()
        var figures: [Double] = []
        var begins = 0
        for _ in 0..<120 {
            box.run(milliseconds: 100)
            let outcome = Self.look(&room, box, member: "screen1")
            if outcome.begins != nil { begins += 1 }
            if let figure = outcome.figure {
                #expect(figure.box == "screen1" && figure.fingerprintValue == box.engine.venueMark()?.fingerprint)
                figures.append(box.now.seconds)
            }
        }
        #expect(begins == 1)
        #expect(figures.count == 3, "\(figures)")
        let gaps: [Double] = zip(figures, figures.dropFirst()).map { pair in pair.1 - pair.0 }
        #expect(gaps.allSatisfy { (gap: Double) -> Bool in abs(gap - 5.0) < 0.15 }, "\(figures)")
    }

    /// A clock that is not the room's: the box says why it waits, once, and neither says a
    /// figure nor moves for the figures it hears.
    @Test func anUntrustedClockWaitsAndMovesNoOne() throws {
        let (hub, box) = (try Self.rig(), try Self.rig())
        hub.run(milliseconds: 10_000)
        box.run(milliseconds: 10_000)
        box.engine.moveLive(byFrames: 480)
        var (hubRoom, boxRoom) = (RoomSync(), RoomSync())
        var waits: [String] = []
        for _ in 0..<100 {
            hub.run(milliseconds: 100)
            box.run(milliseconds: 100)
            let said = Self.look(&hubRoom, hub, member: "hub").figure.map { [$0] } ?? []
            let outcome = Self.look(
                &boxRoom, box, member: "screen2", figures: said, clock: .unknown("chrony does not answer"))
            waits += outcome.waits.map { [$0] } ?? []
            #expect(outcome.figure == nil && outcome.moved == nil)
        }
        #expect(waits.count == 1 && waits[0].contains("chrony does not answer"), "\(waits)")
        #expect(boxRoom.shiftFrames == 0)
    }

    /// A box 10 ms off the room's line hears the hub's figures and moves onto it within a
    /// millisecond; the hub, hearing none, stays.
    @Test func aBoxOffTheRoomsLineMovesOntoIt() throws {
        let (hub, box) = (try Self.rig(), try Self.rig())
        hub.run(milliseconds: 10_000)
        box.run(milliseconds: 10_000)
        box.engine.moveLive(byFrames: 480)
        var (hubRoom, boxRoom) = (RoomSync(), RoomSync())
        for _ in 0..<900 {
            hub.run(milliseconds: 100)
            box.run(milliseconds: 100)
            let said = Self.look(&hubRoom, hub, member: "hub").figure.map { [$0] } ?? []
            _ = Self.look(&boxRoom, box, member: "screen2", figures: said)
        }
        let mark = try #require(hub.engine.venueMark())
        let mine = try #require(box.engine.liveTime(ofVenueMark: mark.fingerprint))
        #expect(abs(Double((mine - mark.liveAt).nanoseconds) / 1e6) < 1, "\(mine) against \(mark.liveAt)")
        #expect(hubRoom.shiftFrames == 0 && boxRoom.shiftFrames != 0)
    }
}
