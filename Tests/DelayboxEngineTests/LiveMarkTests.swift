import DelayboxTestSupport
import Testing

@testable import DelayboxEngine

/// What a restart holds (`LiveMark`): where live was on the connection's own timestamps.
@Suite(.timeLimit(.minutes(10))) struct LiveMarkTests {
    /// A mark held puts live where it says, and the station is followed from there: 30 s
    /// of arrivals (and their fits) later live is still where the mark and the rate put it.
    @Test func aHeldMarkPutsLiveWhereItSaysAndStaysThere() throws {
        var configuration = EngineConfiguration()
        configuration.knownStationPpm = 0  // followed from the start: each fit redraws live
        let rig = try EngineRig(configuration: configuration)
        #expect(rig.engine.liveMark(at: rig.now) == nil, "not before the placement is fixed")
        rig.run(milliseconds: 20_000)  // the arrivals fitted from 10 s: live drawn from them
        let mark = try #require(rig.engine.liveMark(at: rig.now))
        #expect(mark.rate == 1)
        // As a restart's replay placed 1 ms lower than the process before it had.
        var held = mark
        held.connectionFrame += 48
        rig.engine.hold(held)
        #expect(rig.engine.liveMark(at: rig.now)?.connectionFrame == held.connectionFrame)
        rig.run(milliseconds: 30_000)
        let later = try #require(rig.engine.liveMark(at: rig.now))
        let expected = held.connectionFrame + rig.now.frames(since: held.at)
        #expect(abs(later.connectionFrame - expected) <= 2, "\(later.connectionFrame) vs \(expected)")
    }

    /// A mark from a damaged journal is not held: a rate no crystal runs at, live 2 s from
    /// where the replayed arrivals put it, a frame that would overflow.
    @Test(arguments: [(0, 1.5), (96_000, 1.0), (Int64.max, 1.0)])
    func aDamagedMarkIsNotHeld(framesOff: Int64, rate: Double) throws {
        let rig = try EngineRig(configuration: EngineConfiguration())
        rig.run(milliseconds: 10_000)
        let mark = try #require(rig.engine.liveMark(at: rig.now))
        rig.engine.hold(LiveMark(at: mark.at, connectionFrame: mark.connectionFrame &+ framesOff, rate: rate))
        #expect(rig.engine.liveMark(at: rig.now) == mark)
    }
}
